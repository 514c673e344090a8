#!/usr/bin/env python3
"""Writes the tiny image fixtures of CodecsTests into ./Fixtures.

Run from anywhere: `python3 Tests/CodecsTests/make_fixtures.py` (needs Pillow: `pip install pillow`). The fixtures are
committed, so CI never runs this. Each image is built from 8x8 cells of known colours (see CELLS) so the tests can
assert pixels at cell centres, within a tolerance for lossy formats. PNG variants Pillow cannot write (16-bit RGBA,
Adam7 interlacing, a giant header) and the GIF animation (exact frame rectangles and disposal methods) are written by
hand with zlib and struct. The script checks what it wrote by reading it back with Pillow where Pillow can.
"""

import io
import struct
import zlib
from pathlib import Path

from PIL import Image, ImageOps

OUT = Path(__file__).resolve().parent / "Fixtures"

# The picture every colour fixture shows upright: 3x2 cells of 8x8 pixels, 24x16 pixels in all.
CELL = 8
CELLS = [
    [(255, 0, 0), (0, 255, 0), (0, 0, 255)],
    [(255, 255, 0), (255, 0, 255), (0, 255, 255)],
]
GREYS = [[0, 51, 102], [153, 204, 255]]


def cells_image(cells=CELLS, mode="RGB", cell=CELL):
    rows, cols = len(cells), len(cells[0])
    image = Image.new(mode, (cols * cell, rows * cell))
    for cy, row in enumerate(cells):
        for cx, colour in enumerate(row):
            image.paste(colour, (cx * cell, cy * cell, (cx + 1) * cell, (cy + 1) * cell))
    return image


def write(name, data):
    (OUT / name).write_bytes(data)


def save(image, name, **params):
    buffer = io.BytesIO()
    image.save(buffer, **params)
    write(name, buffer.getvalue())
    return buffer.getvalue()


def close(a, b, tolerance):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def check_cells(name, expected_cells, tolerance, mode="RGB"):
    image = Image.open(OUT / name)
    image = ImageOps.exif_transpose(image).convert(mode)
    for cy, row in enumerate(expected_cells):
        for cx, colour in enumerate(row):
            got = image.getpixel((cx * CELL + CELL // 2, cy * CELL + CELL // 2))
            got = got if isinstance(got, tuple) else (got,)
            want = colour if isinstance(colour, tuple) else (colour,)
            assert close(got, want, tolerance), f"{name} cell {cx},{cy}: {got} != {want}"


# MARK: PNG by hand

def png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png_bytes(width, height, bit_depth, colour_type, pixel_bytes, interlace=False, idat=None):
    """pixel_bytes(x, y) -> the bytes of one pixel; rows use filter type 0."""
    header = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 1 if interlace else 0)
    if idat is None:
        if interlace:
            # Adam7: seven passes, each a small image of every n-th pixel from an offset.
            passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        else:
            passes = [(0, 0, 1, 1)]
        raw = bytearray()
        for x0, y0, dx, dy in passes:
            xs = range(x0, width, dx)
            if not xs:
                continue
            for y in range(y0, height, dy):
                raw.append(0)
                for x in xs:
                    raw += pixel_bytes(x, y)
        idat = zlib.compress(bytes(raw), 9)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", idat)
            + png_chunk(b"IEND", b""))


# MARK: GIF by hand

def lzw_literals(indices, min_code_size=8):
    """GIF LZW data that codes every pixel as a literal and clears the table before its codes grow wider."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    width = min_code_size + 1
    codes = []
    run = (1 << min_code_size) - 3  # literals between clears, so the decoder's table never reaches 2^width
    for i, index in enumerate(indices):
        if i % run == 0:
            codes.append(clear)
        codes.append(index)
    codes.append(end)
    bits, nbits, out = 0, 0, bytearray()
    for code in codes:
        bits |= code << nbits
        nbits += width
        while nbits >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8
    if nbits:
        out.append(bits & 0xFF)
    blocks = bytearray([min_code_size])
    for i in range(0, len(out), 255):
        piece = out[i:i + 255]
        blocks += bytes([len(piece)]) + piece
    return bytes(blocks + b"\x00")


def gif_palette(colours):
    size_bits = max(1, (len(colours) - 1).bit_length())
    padded = list(colours) + [(0, 0, 0)] * ((1 << size_bits) - len(colours))
    return size_bits - 1, b"".join(bytes(c) for c in padded)


def gif_frame(left, top, width, height, pixel, delay_cs, disposal, transparent=None, local=None, interlace=False):
    gce_flags = (disposal << 2) | (1 if transparent is not None else 0)
    out = b"\x21\xF9\x04" + struct.pack("<BHB", gce_flags, delay_cs, transparent or 0) + b"\x00"
    flags = 0x40 if interlace else 0
    palette = b""
    if local is not None:
        size_code, palette = gif_palette(local)
        flags |= 0x80 | size_code
    out += b"\x2C" + struct.pack("<HHHHB", left, top, width, height, flags) + palette
    rows = list(range(height))
    if interlace:
        rows = list(range(0, height, 8)) + list(range(4, height, 8)) + list(range(2, height, 4)) + list(range(1, height, 2))
    return out + lzw_literals([pixel(x, y) for y in rows for x in range(width)])


def gif_bytes(width, height, colours, frames, loop=True):
    size_code, palette = gif_palette(colours)
    out = b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80 | 0x70 | size_code, 0, 0) + palette
    if loop:
        out += b"\x21\xFF\x0BNETSCAPE2.0\x03\x01\x00\x00\x00"
    return out + b"".join(frames) + b"\x3B"


def main():
    OUT.mkdir(exist_ok=True)
    for old in OUT.iterdir():
        if old.name != ".keep":
            old.unlink()

    cells = cells_image()
    greys = cells_image(GREYS, mode="L")

    # MARK: JPEG (4:4:4 so that colours do not bleed across cells)
    baseline = save(cells, "baseline.jpg", format="JPEG", quality=95, subsampling=0)
    check_cells("baseline.jpg", CELLS, 12)
    save(cells, "progressive.jpg", format="JPEG", quality=95, subsampling=0, progressive=True)
    check_cells("progressive.jpg", CELLS, 12)
    save(greys, "grey.jpg", format="JPEG", quality=95)
    check_cells("grey.jpg", GREYS, 6, mode="L")

    # CMYK: cells whose inks give the RGB cells below with the naive model R = (1 - C)(1 - K).
    inks = [[(0, 255, 255, 0), (255, 0, 255, 0), (255, 255, 0, 0)],
            [(0, 0, 0, 0), (0, 0, 0, 255), (0, 0, 0, 128)]]
    cmyk = cells_image(inks, mode="CMYK")
    # Pillow writes CMYK as Adobe does: inverted inks, with an APP14 "Adobe" segment.
    adobe = save(cmyk, "cmyk_adobe.jpg", format="JPEG", quality=95, subsampling=0)
    assert b"Adobe" in adobe
    check_cells("cmyk_adobe.jpg", inks, 12, mode="CMYK")
    # Plain CMYK: store the inks themselves (Pillow inverts what it is given) and drop the Adobe segment.
    inverted = Image.merge("CMYK", [ImageOps.invert(band) for band in cmyk.split()])
    plain = bytearray(save(inverted, "cmyk_plain.jpg", format="JPEG", quality=95, subsampling=0))
    at = plain.index(b"\xFF\xEE")
    length = struct.unpack(">H", plain[at + 2:at + 4])[0]
    del plain[at:at + 2 + length]
    write("cmyk_plain.jpg", bytes(plain))
    # Pillow reads every CMYK JPEG as inverted ("assume Adobe conventions"), so it sees the inks inverted here.
    check_cells("cmyk_plain.jpg", [[tuple(255 - v for v in ink) for ink in row] for row in inks], 12, mode="CMYK")

    # EXIF orientation n: store the picture turned so that applying tag n shows it upright again.
    undo = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
            5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_90, 7: Image.Transpose.TRANSVERSE,
            8: Image.Transpose.ROTATE_270}
    for n in range(1, 9):
        stored = cells.transpose(undo[n]) if n in undo else cells
        exif = Image.Exif()
        exif[0x0112] = n
        save(stored, f"orientation_{n}.jpg", format="JPEG", quality=95, subsampling=0, exif=exif.tobytes())
        check_cells(f"orientation_{n}.jpg", CELLS, 12)
    # Big-endian ("MM") EXIF, as many cameras write it; orientation 6.
    exif_mm = (b"Exif\x00\x00MM\x00\x2A\x00\x00\x00\x08\x00\x01"
               + struct.pack(">HHIHH", 0x0112, 3, 1, 6, 0) + b"\x00\x00\x00\x00")
    body = bytearray(save(cells.transpose(Image.Transpose.ROTATE_90), "orientation_6_motorola.jpg",
                          format="JPEG", quality=95, subsampling=0))
    body[2:2] = b"\xFF\xE1" + struct.pack(">H", len(exif_mm) + 2) + exif_mm
    write("orientation_6_motorola.jpg", bytes(body))
    check_cells("orientation_6_motorola.jpg", CELLS, 12)

    # A 64x48 JPEG cut in the middle of its scan: the top survives.
    big = cells_image(cell=16).resize((64, 48), Image.Resampling.NEAREST)
    whole = save(big, "truncated_source.jpg", format="JPEG", quality=90)
    (OUT / "truncated_source.jpg").unlink()
    write("truncated.jpg", whole[:len(whole) * 2 // 3])
    # SOI, then bytes that are no marker at all.
    write("corrupt.jpg", b"\xFF\xD8\xFF" + b"B" * 64)
    # Only the first tables: no frame header, so no size.
    write("header_only.jpg", baseline[:100])

    # MARK: PNG
    save(cells, "rgb.png", format="PNG")
    save(greys, "grey.png", format="PNG")
    save(cells.quantize(8), "palette.png", format="PNG")
    check_cells("palette.png", CELLS, 0)
    rgba = cells.convert("RGBA")
    alphas = [[255, 128, 0], [64, 255, 200]]
    for cy, row in enumerate(alphas):
        for cx, alpha in enumerate(row):
            rgba.paste(CELLS[cy][cx] + (alpha,), (cx * CELL, cy * CELL, (cx + 1) * CELL, (cy + 1) * CELL))
    save(rgba, "rgba.png", format="PNG")
    save(greys.convert("LA").copy(), "grey_alpha.png", format="PNG")
    # A palette image whose third colour is transparent through tRNS.
    palette = cells.quantize(8)
    blue = palette.getpixel((2 * CELL + 4, 4))
    save(palette, "palette_trns.png", format="PNG", transparency=blue)

    # 16-bit RGBA by hand: cells at v * 257 (exactly v in 8 bits), the magenta cell at 0x8000 red (128 in 8 bits).
    def rgba16(x, y):
        r, g, b = CELLS[y // CELL][x // CELL]
        values = [c * 257 for c in (r, g, b)] + [65535]
        if (x // CELL, y // CELL) == (1, 1):
            values[0] = 0x8000
        return struct.pack(">4H", *values)
    write("rgba16.png", png_bytes(24, 16, 16, 6, rgba16))
    assert Image.open(OUT / "rgba16.png").size == (24, 16)

    # Adam7-interlaced RGB by hand, a different colour at every pixel so that a misplaced pass shows.
    def gradient(x, y):
        return bytes([x * 10, y * 15, (x * y) % 256])
    write("interlaced.png", png_bytes(24, 16, 8, 2, gradient, interlace=True))
    probe = Image.open(OUT / "interlaced.png")
    assert probe.info.get("interlace") == 1 and probe.convert("RGB").getpixel((7, 5)) == (70, 75, 35)

    rgb_png = (OUT / "rgb.png").read_bytes()
    write("truncated.png", rgb_png[:len(rgb_png) - 30])
    idat = rgb_png.index(b"IDAT")
    broken = bytearray(rgb_png)
    idat_length = struct.unpack(">I", rgb_png[idat - 4:idat])[0]
    broken[idat + 4 + idat_length] ^= 0xFF  # the first byte of the IDAT chunk's CRC
    write("bad_crc.png", bytes(broken))
    # The header of a 100000x100000 image with a tiny IDAT: must be refused before any pixel memory exists.
    write("giant.png", png_bytes(100_000, 100_000, 8, 2, None, idat=zlib.compress(b"\x00" * 64)))

    # MARK: GIF
    # 12x8 canvas, four frames exercising offsets, transparency, every disposal method, a local palette and
    # interlacing. Palette: 0 black, 1 red, 2 green, 3 blue, 4 yellow, 5 white, 6 magenta, 7 cyan (transparent).
    colours = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (255, 255, 255), (255, 0, 255),
               (0, 255, 255)]
    frames = [
        # 1: left half red, right half transparent; kept (disposal 1); 100 ms.
        gif_frame(0, 0, 12, 8, lambda x, y: 1 if x < 6 else 7, 10, 1, transparent=7),
        # 2: green 6x4 at the top right; restored to background (transparent) afterwards (disposal 2); 200 ms.
        gif_frame(6, 0, 6, 4, lambda x, y: 2, 20, 2),
        # 3: blue 6x4 at the bottom left, local palette, interlaced; restored to previous (disposal 3); 50 ms.
        gif_frame(0, 4, 6, 4, lambda x, y: 1, 5, 3, local=[(255, 255, 255), (0, 0, 255)], interlace=True),
        # 4: yellow 6x4 in the middle, no transparency; 0 ms.
        gif_frame(3, 2, 6, 4, lambda x, y: 4, 0, 0),
    ]
    animated = gif_bytes(12, 8, colours, frames)
    write("animated.gif", animated)
    probe = Image.open(OUT / "animated.gif")
    assert probe.n_frames == 4
    # A one-frame GIF written by Pillow (LZW with real string codes).
    save(cells.quantize(8), "still.gif", format="GIF")
    check_cells("still.gif", CELLS, 0)
    write("truncated.gif", animated[:60])  # ends inside the first extension, before any frame
    write("truncated_animation.gif", animated[:-10])  # ends inside the fourth frame's pixels
    # One 24x16 frame of the colour cells, cut in its second 255-byte data block (giflib reads whole blocks): the
    # rows coded in the first block survive.
    palette_cells = [colour for row in CELLS for colour in row]
    whole = gif_bytes(24, 16, palette_cells, [gif_frame(0, 0, 24, 16, lambda x, y: (y // CELL) * 3 + x // CELL, 0, 0)],
                      loop=False)
    write("truncated_frame.gif", whole[:len(whole) * 3 // 4])
    write("giant_screen.gif", gif_bytes(65535, 65535, colours, [gif_frame(0, 0, 2, 2, lambda x, y: 1, 0, 0)]))

    # MARK: WebP (16x16 cells for the lossy one: its 4:2:0 chroma would blur 8x8 cells)
    rgba_big = cells_image(cell=16).convert("RGBA")
    for cy, row in enumerate(alphas):
        for cx, alpha in enumerate(row):
            rgba_big.paste(CELLS[cy][cx] + (alpha,), (cx * 16, cy * 16, (cx + 1) * 16, (cy + 1) * 16))
    lossy = save(rgba_big, "lossy_alpha.webp", format="WEBP", quality=90)
    # exact: keep the colour under fully transparent pixels, which the encoder otherwise drops.
    save(rgba, "lossless_alpha.webp", format="WEBP", lossless=True, exact=True)
    assert Image.open(OUT / "lossless_alpha.webp").convert("RGBA").tobytes() == rgba.tobytes()
    red, blue = Image.new("RGB", (10, 6), (255, 0, 0)), Image.new("RGB", (10, 6), (0, 0, 255))
    save(red, "animated.webp", format="WEBP", save_all=True, append_images=[blue], duration=[120, 80],
         lossless=True, loop=0)
    write("truncated.webp", lossy[:len(lossy) // 2])

    # MARK: not images, and names that lie
    write("empty.jpg", b"")
    write("not_an_image.jpg", b"<!DOCTYPE html><html><body>404 Not Found</body></html>\n")
    write("png_named.jpg", rgb_png)
    write("jpeg_named.gif", baseline)

    for path in sorted(OUT.iterdir()):
        print(f"{path.stat().st_size:6d}  {path.name}")


if __name__ == "__main__":
    main()
