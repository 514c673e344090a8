@testable import Codecs
import Pixels
import Testing

@Suite struct PNGDecodingTests {
    @Test(arguments: ["rgb.png", "palette.png"])
    func decodesColourCellsExactly(name: String) throws {
        let image = try Fixtures.decode(name)
        #expect(image.format == .png)
        #expect(image.originalWidth == 24 && image.originalHeight == 16)
        expectCells(image.bitmap, Fixtures.cells, tolerance: 0)
    }

    @Test func rgbWithoutAlphaDecodesOpaqueAtEveryPixel() throws {
        let bitmap = try Fixtures.decode("rgb.png").bitmap
        let alphas = stride(from: 3, to: bitmap.pixels.count, by: 4).map { bitmap.pixels[$0] }
        #expect(alphas.allSatisfy { $0 == 255 })
    }

    @Test(arguments: [2, 5, 200])
    func paletteIndicesBecomeTheirColoursAtEveryPixel(colours: Int) throws {
        // Given a palette PNG 13 pixels wide: at 1, 4 and 8 bits a pixel, rows that do not end on a byte boundary
        let palette = (0..<colours).map { (i: Int) -> PNGEncoder.Color in
            PNGEncoder.Color(r: UInt8(i), g: UInt8(255 - i), b: UInt8(i * 7 % 256))
        }
        let width = 13, height = 7
        let indices = (0..<(width * height)).map { (i: Int) -> UInt8 in UInt8((i * 31 + i / width) % colours) }
        let png = try PNGEncoder.indexed(width: width, height: height, palette: palette, indices: indices)

        // When it is decoded
        let bitmap = try ImageDecoder.decode(png).bitmap

        // Then every pixel is its index's colour, opaque
        #expect(bitmap.width == width && bitmap.height == height)
        let wrong = (0..<(width * height)).filter { i in
            let want = palette[Int(indices[i])]
            return bitmap[i % width, i / width] != RGBA(r: want.r, g: want.g, b: want.b)
        }
        #expect(wrong.isEmpty, "pixels \(wrong.prefix(5)) differ")
    }

    @Test(arguments: [(1, 1), (2, 3), (13, 7)])
    func opaqueGreyAndRGBRowsBecomeTheirPixelsAtEveryPixel(width: Int, height: Int) throws {
        // Given 8-bit grey and RGB PNGs whose every pixel differs, at sizes that leave a remainder in any grouping
        let count = width * height
        let grey = (0..<count).map { (i: Int) -> UInt8 in UInt8((i * 37 + 11) % 256) }
        let rgb = (0..<count).flatMap { (i: Int) -> [UInt8] in
            [UInt8(i * 3 % 256), UInt8(255 - i % 256), UInt8(i * 91 % 256)]
        }

        // When they are decoded
        let greyBitmap = try ImageDecoder.decode(Self.png(width: width, height: height, colourType: 0, samples: grey))
            .bitmap
        let rgbBitmap = try ImageDecoder.decode(Self.png(width: width, height: height, colourType: 2, samples: rgb))
            .bitmap

        // Then each pixel is its samples, opaque
        let wrongGrey = (0..<count).filter {
            greyBitmap[$0 % width, $0 / width] != RGBA(r: grey[$0], g: grey[$0], b: grey[$0])
        }
        let wrongRGB = (0..<count).filter {
            rgbBitmap[$0 % width, $0 / width] != RGBA(r: rgb[3 * $0], g: rgb[3 * $0 + 1], b: rgb[3 * $0 + 2])
        }
        #expect(wrongGrey.isEmpty, "grey pixels \(wrongGrey.prefix(5)) differ")
        #expect(wrongRGB.isEmpty, "RGB pixels \(wrongRGB.prefix(5)) differ")
    }

    @Test func oneBitGreyBecomesBlackAndWhite() throws {
        // Given a 1-bit grey PNG 13 pixels wide (rows end inside a byte), in a checkerboard of 3x3 squares
        let width = 13, height = 7
        let on = { (x: Int, y: Int) in (x / 3 + y / 3) % 2 == 1 }
        let rowBytes = (width + 7) / 8
        var packed = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            for x in 0..<width where on(x, y) { packed[y * rowBytes + x / 8] |= 0x80 >> (x % 8) }
        }
        let png = Self.png(width: width, height: height, colourType: 0, samples: packed, bitDepth: 1)

        // When it is decoded, then each pixel is black or white as its bit says
        let bitmap = try ImageDecoder.decode(png).bitmap
        let wrong = (0..<(width * height)).filter { i in
            let v: UInt8 = on(i % width, i / width) ? 255 : 0
            return bitmap[i % width, i / width] != RGBA(r: v, g: v, b: v)
        }
        #expect(wrong.isEmpty, "pixels \(wrong.prefix(5)) differ")
    }

    /// A PNG of colour type 0 (grey) or 2 (RGB) holding `samples` (rows packed at `bitDepth`), rows unfiltered,
    /// stored uncompressed.
    private static func png(width: Int, height: Int, colourType: UInt8, samples: [UInt8],
                            bitDepth: UInt8 = 8) -> [UInt8] {
        func bigEndian(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF),
                                                UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(data.count) + body + bigEndian(Int(PNGEncoder.crc32(body)))
        }
        let rowBytes = samples.count / height
        let raw: [UInt8] = (0..<height).flatMap { [0] + samples[($0 * rowBytes)..<(($0 + 1) * rowBytes)] }
        let header: [UInt8] = bigEndian(width) + bigEndian(height) + [bitDepth, colourType, 0, 0, 0]
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", header)
        png += chunk("IDAT", PNGEncoder.zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    @Test func decodesGrey() throws {
        expectCells(try Fixtures.decode("grey.png").bitmap, Fixtures.greys.asGreyCells, tolerance: 0)
    }

    @Test func keepsStraightAlpha() throws {
        let bitmap = try Fixtures.decode("rgba.png").bitmap
        for (cy, row) in Fixtures.alphas.enumerated() {
            for (cx, alpha) in row.enumerated() {
                let pixel = bitmap[cx * 8 + 4, cy * 8 + 4]
                #expect(pixel.a == alpha)
                // Straight alpha: colour is not premultiplied (where any colour is left to see).
                if alpha > 0 {
                    var want = Fixtures.cells[cy][cx]
                    want.a = alpha
                    #expect(pixel == want)
                }
            }
        }
    }

    @Test func decodesGreyWithAlpha() throws {
        let bitmap = try Fixtures.decode("grey_alpha.png").bitmap
        expectCells(bitmap, Fixtures.greys.asGreyCells, tolerance: 0)
    }

    @Test func paletteTransparencyBecomesAlpha() throws {
        let bitmap = try Fixtures.decode("palette_trns.png").bitmap
        #expect(bitmap[2 * 8 + 4, 4].a == 0)
        #expect(bitmap[4, 4] == Fixtures.cells[0][0])
    }

    @Test func sixteenBitSamplesAreSRGBNotLinear() throws {
        var expected = Fixtures.cells
        expected[1][1].r = 128  // stored as 0x8000
        expectCells(try Fixtures.decode("rgba16.png").bitmap, expected, tolerance: 0)
    }

    @Test func interlacedPassesLandOnTheirPixels() throws {
        let bitmap = try Fixtures.decode("interlaced.png").bitmap
        #expect(bitmap.width == 24 && bitmap.height == 16)
        for y in 0..<16 {
            for x in 0..<24 {
                #expect(bitmap[x, y] == RGBA(r: UInt8(x * 10), g: UInt8(y * 15), b: UInt8((x * y) % 256)))
            }
        }
    }

    @Test func targetSizeIsIgnored() throws {
        let image = try Fixtures.decode("rgb.png", options: .init(targetSize: PixelSize(width: 3, height: 2)))
        #expect(image.bitmap.width == 24 && image.bitmap.height == 16)
    }

    @Test func truncatedPNGIsATypedError() throws {
        let error = try #require(Fixtures.error(decoding: "truncated.png"))
        guard case .corrupt(.png, let reason) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(reason == "png_image_finish_read: read beyond end of data")
        #expect(error.description == "the PNG data is damaged: png_image_finish_read: read beyond end of data")
    }

    @Test func badChecksumIsATypedError() throws {
        let error = try #require(Fixtures.error(decoding: "bad_crc.png"))
        #expect(error == .corrupt(.png, reason: "png_image_finish_read: IDAT: CRC error"))
    }

    @Test func giantHeaderIsRefusedBeforeDecoding() throws {
        let error = try #require(Fixtures.error(decoding: "giant.png"))
        #expect(error == .imageTooLarge(width: 100_000, height: 100_000, limit: 100_000_000))
        #expect(error.description == "the image is 100000x100000 pixels (10000 megapixels), above the 100 megapixels "
            + "limit; raise the pixel limit (DecodeOptions.maxPixels) to decode it")
    }
}
