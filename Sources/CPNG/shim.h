#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H

// The simplified `png_image_*` API is used where it decodes right: errors come back in `png_image.message`, never
// through libpng's default handlers (which print to stderr). 16-bit files go through `cpng_read_rgba8_from16` below.
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// `PNG_FORMAT_RGBA` is a macro built from other macros with `|`, which Swift does not import.
static inline png_uint_32 cpng_format_rgba(void) {
    return PNG_FORMAT_RGBA;
}

/// `PNG_FORMAT_RGBA_COLORMAP` is a macro built from other macros with `|`, which Swift does not import.
static inline png_uint_32 cpng_format_rgba_colormap(void) {
    return PNG_FORMAT_RGBA_COLORMAP;
}

/// `PNG_FORMAT_RGB` likewise.
static inline png_uint_32 cpng_format_rgb(void) {
    return PNG_FORMAT_RGB;
}

/// A `png_image` and the question the row callback asks after each row: libpng's memory reader keeps the
/// `png_image` as its io pointer, so the callback finds this struct (the image is its first member) from the
/// `png_struct` alone.
typedef struct {
    png_image image;
    /// Returns nonzero when the decode is no longer wanted (its task cancelled); NULL never stops.
    int (*should_stop)(void);
} cpng_decoding;

/// libpng's row callback (`png_set_read_status_fn`): a decode that is no longer wanted ends between two rows, as a
/// libpng error with the text "cancelled".
static inline void cpng_row_done(png_structp png, png_uint_32 row, int pass) {
    (void)row;
    (void)pass;
    cpng_decoding *decoding = (cpng_decoding *)png_get_io_ptr(png);
    if (decoding->should_stop != NULL && decoding->should_stop()) png_error(png, "cancelled");
}

/// Between `png_image_begin_read_from_memory` and `png_image_finish_read`: asks `should_stop` after every row.
/// The simplified API keeps its `png_struct` private: it is the first member of the `png_control` that
/// `png_image.opaque` points to (pngpriv.h, unchanged through libpng 1.6).
static inline void cpng_watch(cpng_decoding *decoding) {
    png_structp png = *(png_structp *)decoding->image.opaque;
    png_set_read_status_fn(png, cpng_row_done);
}

/// Where libpng's full API reads from and reports to, for `cpng_read_rgba8_from16`.
typedef struct {
    const unsigned char *data;
    size_t size, offset;
    jmp_buf jump;
    char *message;
    size_t message_size;
    int (*should_stop)(void);
} cpng_reader;

/// libpng's error callback: keeps the text and jumps back into `cpng_read_rgba8_from16` (libpng's default prints).
static inline void cpng_reader_error(png_structp png, png_const_charp text) {
    cpng_reader *reader = (cpng_reader *)png_get_error_ptr(png);
    snprintf(reader->message, reader->message_size, "%s", text);
    longjmp(reader->jump, 1);
}

/// Warnings (colour profiles, mostly) never change the pixels enough to tell a user, as with the simplified API.
static inline void cpng_reader_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static inline void cpng_reader_read(png_structp png, png_bytep out, size_t count) {
    cpng_reader *reader = (cpng_reader *)png_get_io_ptr(png);
    if (reader->size - reader->offset < count) png_error(png, "read beyond end of data");
    memcpy(out, reader->data + reader->offset, count);
    reader->offset += count;
}

/// Decodes a 16-bit PNG of `width` x `height` pixels into `pixels` (4 bytes a pixel) as 8-bit RGBA with straight
/// alpha, 16-bit samples taken as sRGB (a gAMA chunk is converted to sRGB), as the simplified API does with
/// `PNG_IMAGE_FLAG_16BIT_sRGB`. Returns 1, or 0 with libpng's error text in `message`: "cancelled" when
/// `should_stop` (asked after every row; may be NULL) said so.
///
/// Why not the simplified API: in this libpng (Debian's 1.6.39, with a backported fix for a png_image_finish_read
/// buffer overflow; libpng issue 853) its 16-to-8-bit path for interlaced files starts each pass's row from the
/// previous row of that pass, so every even row comes out wrong. Here libpng hands out each Adam7 pass's rows as
/// they are stored, still 16-bit, and each pixel is scaled to 8 bits and put in its place: one 16-bit row of memory
/// beyond the bitmap, whatever the interlacing.
static inline int cpng_read_rgba8_from16(const void *data, size_t size, unsigned char *pixels, png_uint_32 width,
                                         png_uint_32 height, char *message, size_t message_size,
                                         int (*should_stop)(void)) {
    /* Adam7: each pass starts at (x0, y0) and takes every dx-th pixel of every dy-th row. */
    static const unsigned char x0[7] = {0, 4, 0, 2, 0, 1, 0}, y0[7] = {0, 0, 4, 0, 2, 0, 1};
    static const unsigned char dx[7] = {8, 8, 4, 4, 2, 2, 1}, dy[7] = {8, 8, 8, 4, 4, 2, 2};
    cpng_reader reader = {.data = data, .size = size, .offset = 0, .message = message, .message_size = message_size,
                          .should_stop = should_stop};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, cpng_reader_error, cpng_reader_warning);
    if (png == NULL) {
        snprintf(message, message_size, "png_create_read_struct failed");
        return 0;
    }
    png_infop info = png_create_info_struct(png);
    png_uint_16 *volatile row = NULL;
    if (setjmp(reader.jump)) {
        png_destroy_read_struct(&png, info != NULL ? &info : NULL, NULL);
        free(row);
        return 0;
    }
    if (info == NULL) png_error(png, "png_create_info_struct failed");
    png_set_read_fn(png, &reader, cpng_reader_read);
    png_read_info(png, info);
    if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height
        || png_get_bit_depth(png, info) != 16) {
        png_error(png, "the header differs from the one read before");
    }
    int interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    png_set_expand(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFFFF, PNG_FILLER_AFTER);
    png_set_gamma(png, PNG_DEFAULT_sRGB, PNG_DEFAULT_sRGB);
#if BYTE_ORDER == LITTLE_ENDIAN
    png_set_swap(png);
#endif
    /* No png_set_interlace_handling: png_read_row then returns the passes' own, narrower rows, in file order. */
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 8) png_error(png, "unexpected row size after transforms");
    row = (png_uint_16 *)malloc((size_t)width * 8);
    if (row == NULL) png_error(png, "out of memory for one row");
    for (int pass = 0; pass < (interlaced ? 7 : 1); pass++) {
        png_uint_32 sx = interlaced ? x0[pass] : 0, sy = interlaced ? y0[pass] : 0;
        png_uint_32 stepx = interlaced ? dx[pass] : 1, stepy = interlaced ? dy[pass] : 1;
        if (sx >= width || sy >= height) continue; /* an empty pass is not stored (libpng skips it too) */
        png_uint_32 columns = (width - sx + stepx - 1) / stepx;
        for (png_uint_32 y = sy; y < height; y += stepy) {
            png_read_row(png, (png_bytep)row, NULL);
            if (should_stop != NULL && should_stop()) png_error(png, "cancelled");
            unsigned char *out = pixels + ((size_t)y * width + sx) * 4;
            for (png_uint_32 i = 0; i < columns * 4; i += 4, out += (size_t)stepx * 4) {
                for (int c = 0; c < 4; c++) {
                    /* v / 257 rounded, exactly as png_set_scale_16 does it. */
                    png_uint_32 v = row[i + c] + 128u;
                    out[c] = (unsigned char)((v - (v >> 8)) >> 8);
                }
            }
        }
    }
    png_destroy_read_struct(&png, &info, NULL);
    free(row);
    return 1;
}

#endif
