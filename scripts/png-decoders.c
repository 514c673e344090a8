// The PNG budget (issue 16 item 4): what one decode of a 150x150 RGB photo PNG costs through each candidate, in
// instructions (callgrind) and time. Measured once; nothing here is linked into ThumbTable. Needs libspng-dev
// (Debian's 0.7.3, installed for this measurement only, not in scripts/setup).
//
//   gcc -O2 -o /tmp/png-decoders scripts/png-decoders.c -lpng16 -lspng -lturbojpeg -lz
//   /tmp/png-decoders [ROUNDS]                 median time of each variant, in alternating rounds
//   valgrind --tool=callgrind /tmp/png-decoders VARIANT N    N decodes of one variant (and N=0 for the set-up cost)
//
// The input is made as `Bench render` makes it: ../shared/data/images/rocket.jpg box-scaled to 150x150, rows
// unfiltered, deflated with compress2 at level 9. Every variant's RGBA output is checked against ours.

#include <png.h>
#include <spng.h>
#include <turbojpeg.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned char *png_data; static size_t png_size;
static unsigned char out[150 * 150 * 4];

static void put32(unsigned char *p, unsigned v) { p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v; }
static size_t chunk(unsigned char *dst, const char *type, const unsigned char *data, unsigned len) {
    put32(dst, len); memcpy(dst + 4, type, 4); memcpy(dst + 8, data, len);
    put32(dst + 8 + len, crc32(crc32(0, (const unsigned char *)type, 4), data, len));
    return 12 + len;
}
static unsigned char *zdata; static unsigned long zsize; static unsigned char raw[(150 * 3 + 1) * 150];

static void make_input(const char *jpg) {
    FILE *f = fopen(jpg, "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    unsigned char *j = malloc(n); fread(j, 1, n, f); fclose(f);
    tjhandle h = tjInitDecompress(); int w, hh, ss, cs;
    tjDecompressHeader3(h, j, n, &w, &hh, &ss, &cs);
    unsigned char *rgb = malloc((size_t)w * hh * 3);
    tjDecompress2(h, j, n, rgb, w, 0, hh, TJPF_RGB, 0);
    for (int y = 0; y < 150; y++) {
        raw[y * 451] = 0;
        for (int x = 0; x < 150; x++) for (int c = 0; c < 3; c++) {
            int x0 = x * w / 150, x1 = (x + 1) * w / 150, y0 = y * hh / 150, y1 = (y + 1) * hh / 150; long s = 0, k = 0;
            for (int yy = y0; yy < y1; yy++) for (int xx = x0; xx < x1; xx++) { s += rgb[((size_t)yy * w + xx) * 3 + c]; k++; }
            raw[y * 451 + 1 + x * 3 + c] = s / k;
        }
    }
    zsize = compressBound(sizeof raw); zdata = malloc(zsize); compress2(zdata, &zsize, raw, sizeof raw, 9);
    png_data = malloc(zsize + 100); size_t p = 0;
    memcpy(png_data, "\x89PNG\r\n\x1a\n", 8); p = 8;
    unsigned char ihdr[13]; put32(ihdr, 150); put32(ihdr + 4, 150); ihdr[8] = 8; ihdr[9] = 2; ihdr[10] = ihdr[11] = ihdr[12] = 0;
    p += chunk(png_data + p, "IHDR", ihdr, 13); p += chunk(png_data + p, "IDAT", zdata, zsize); p += chunk(png_data + p, "IEND", (const unsigned char *)"", 0);
    png_size = p;
    
}

static void expand_rgb(unsigned char *packed, int count) {
    for (int i = 0; i < count; i++) { out[4*i] = packed[3*i]; out[4*i+1] = packed[3*i+1]; out[4*i+2] = packed[3*i+2]; out[4*i+3] = 255; }
}

static int simplified(void) {
    png_image im; memset(&im, 0, sizeof im); im.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&im, png_data, png_size)) return 0;
    im.format = PNG_FORMAT_RGB;
    unsigned char *packed = out + 150 * 150;
    if (!png_image_finish_read(&im, NULL, packed, 0, NULL)) return 0;
    expand_rgb(packed, 150 * 150); return 1;
}

typedef struct { const unsigned char *d; size_t n, off; } src;
static void rd(png_structp p, png_bytep o, size_t c) { src *s = png_get_io_ptr(p); if (s->n - s->off < c) png_error(p, "eof"); memcpy(o, s->d + s->off, c); s->off += c; }
static void err(png_structp p, png_const_charp m) { fprintf(stderr, "libpng: %s\n", m); png_longjmp(p, 1); }
static void warn(png_structp p, png_const_charp m) { (void)p; (void)m; }
static int full(int filler) {
    src s = {png_data, png_size, 0};
    png_structp p = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, err, warn);
    png_infop info = png_create_info_struct(p);
    if (setjmp(png_jmpbuf(p))) { png_destroy_read_struct(&p, &info, NULL); return 0; }
    png_set_read_fn(p, &s, rd);
    png_read_info(p, info);
    if (filler) png_set_filler(p, 0xff, PNG_FILLER_AFTER);
    png_read_update_info(p, info);
    unsigned char *base = filler ? out : out + 150 * 150;
    size_t stride = filler ? 600 : 450;
    for (int y = 0; y < 150; y++) png_read_row(p, base + y * stride, NULL);
    png_read_end(p, NULL);
    png_destroy_read_struct(&p, &info, NULL);
    if (!filler) expand_rgb(out + 150 * 150, 150 * 150);
    return 1;
}

static int spng(int rgba) {
    spng_ctx *c = spng_ctx_new(0);
    spng_set_image_limits(c, 1 << 16, 1 << 16);
    spng_set_chunk_limits(c, 1 << 24, 1 << 26);
    spng_set_png_buffer(c, png_data, png_size);
    int r;
    if (rgba) r = spng_decode_image(c, out, sizeof out, SPNG_FMT_RGBA8, 0);
    else { r = spng_decode_image(c, out + 150 * 150, 150 * 150 * 3, SPNG_FMT_RGB8, 0); if (!r) expand_rgb(out + 150 * 150, 150 * 150); }
    spng_ctx_free(c);
    return r == 0;
}

// One inflate call over the whole IDAT stream into a buffer of filtered rows, CRCs checked, then unfilter + expand.
static unsigned char filtered[(150 * 3 + 1) * 150];
static int whole(void) {
    size_t p = 8; z_stream z; memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK) return 0;
    z.next_out = filtered; z.avail_out = sizeof filtered;
    int ok = 0;
    while (p + 12 <= png_size) {
        unsigned len = png_data[p] << 24 | png_data[p+1] << 16 | png_data[p+2] << 8 | png_data[p+3];
        const unsigned char *type = png_data + p + 4, *data = type + 4;
        unsigned crc = data[len] << 24 | data[len+1] << 16 | data[len+2] << 8 | data[len+3];
        if (crc32(0, type, len + 4) != crc) break;
        if (!memcmp(type, "IDAT", 4)) { z.next_in = (unsigned char *)data; z.avail_in = len; int r = inflate(&z, Z_NO_FLUSH); if (r == Z_STREAM_END) ok = 1; else if (r != Z_OK && r != Z_BUF_ERROR) break; }
        if (!memcmp(type, "IEND", 4)) break;
        p += 12 + len;
    }
    inflateEnd(&z);
    if (!ok) return 0;
    unsigned char *dst = out + 150 * 150; const int rb = 450;
    for (int y = 0; y < 150; y++) {
        unsigned char f = filtered[y * 451], *row = filtered + y * 451 + 1, *prev = y ? dst + (y - 1) * rb : NULL, *d = dst + y * rb;
        switch (f) {
        case 0: memcpy(d, row, rb); break;
        case 1: for (int i = 0; i < rb; i++) d[i] = row[i] + (i >= 3 ? d[i - 3] : 0); break;
        case 2: for (int i = 0; i < rb; i++) d[i] = row[i] + (prev ? prev[i] : 0); break;
        default:
            for (int i = 0; i < rb; i++) {
                int a = i >= 3 ? d[i - 3] : 0, b = prev ? prev[i] : 0, c = prev && i >= 3 ? prev[i - 3] : 0, v = row[i];
                if (f == 3) v += (a + b) / 2;
                else if (f == 4) { int pp = a + b - c, pa = abs(pp - a), pb = abs(pp - b), pc = abs(pp - c); v += (pa <= pb && pa <= pc) ? a : pb <= pc ? b : c; }
                else return 0;
                d[i] = v;
            }
        }
    }
    expand_rgb(dst, 150 * 150);
    return 1;
}

static int floor_(void) { uLongf n = sizeof raw; return uncompress(raw, &n, zdata, zsize) == Z_OK; }

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static int run(int v) { switch (v) { case 0: return simplified(); case 1: return full(0); case 2: return full(1); case 3: return spng(1); case 4: return spng(0); case 6: return whole(); default: return floor_(); } }
static const char *names[] = {"libpng simplified RGB + expand (ours)", "libpng full API rows RGB + expand", "libpng full API filler RGBA", "libspng RGBA8", "libspng RGB8 + expand", "zlib uncompress floor", "whole-stream inflate + CRC + unfilter + expand"};
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }

int main(int argc, char **argv) {
    make_input("../shared/data/images/rocket.jpg");
    unsigned char ref[sizeof out];
    simplified(); memcpy(ref, out, sizeof out);
    for (int v = 1; v < 7; v++) { if (v == 5) continue; memset(out, 0, sizeof out); run(v); if (memcmp(ref, out, sizeof out)) printf("MISMATCH %s\n", names[v]); }
    if (argc > 2) { int v = atoi(argv[1]), n = atoi(argv[2]); for (int i = 0; i < n; i++) run(v); return 0; }  // for callgrind
    int rounds = argc > 1 ? atoi(argv[1]) : 31;
    if (rounds > 101) rounds = 101;
    double t[7][101];
    printf("input %zu bytes\n", png_size);
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < 7; k++) {
            int v = r % 2 ? 6 - k : k;  // alternate the order
            double s = now(); for (int i = 0; i < 200; i++) run(v); t[v][r] = (now() - s) / 200 * 1000;
        }
    for (int v = 0; v < 7; v++) { qsort(t[v], rounds, sizeof(double), cmp); printf("%-40s median %.3f ms\n", names[v], t[v][rounds / 2]); }
    return 0;
}
