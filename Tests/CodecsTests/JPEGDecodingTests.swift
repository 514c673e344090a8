import Codecs
import Pixels
import Testing

@Suite struct JPEGDecodingTests {
    @Test(arguments: ["baseline.jpg", "progressive.jpg"])
    func decodesColourCells(name: String) throws {
        let image = try Fixtures.decode(name)
        #expect(image.format == .jpeg)
        #expect(image.originalWidth == 24 && image.originalHeight == 16)
        #expect(image.warning == nil)
        #expect(image.frames.isEmpty)
        expectCells(image.bitmap, Fixtures.cells, tolerance: 12)
    }

    @Test func decodesGreyToOpaqueRGBA() throws {
        let image = try Fixtures.decode("grey.jpg")
        expectCells(image.bitmap, Fixtures.greys.asGreyCells, tolerance: 6)
    }

    /// Inks chosen so that the naive model gives red, green, blue, white, black and 50 % grey.
    static let cmykExpected: [[RGBA]] = [
        [RGBA(r: 255, g: 0, b: 0), RGBA(r: 0, g: 255, b: 0), RGBA(r: 0, g: 0, b: 255)],
        [RGBA(r: 255, g: 255, b: 255), RGBA(r: 0, g: 0, b: 0), RGBA(r: 127, g: 127, b: 127)],
    ]

    @Test(arguments: ["cmyk_adobe.jpg", "cmyk_plain.jpg"])
    func decodesCMYK(name: String) throws {
        let image = try Fixtures.decode(name)
        expectCells(image.bitmap, Self.cmykExpected, tolerance: 12)
    }

    @Test(arguments: 1...8)
    func turnsEveryEXIFOrientationUpright(orientation: Int) throws {
        let image = try Fixtures.decode("orientation_\(orientation).jpg")
        #expect(image.originalWidth == 24 && image.originalHeight == 16)
        expectCells(image.bitmap, Fixtures.cells, tolerance: 12)
    }

    @Test func readsBigEndianEXIF() throws {
        let image = try Fixtures.decode("orientation_6_motorola.jpg")
        expectCells(image.bitmap, Fixtures.cells, tolerance: 12)
    }

    @Test func rotatedImageScalesForTheDisplayedTarget() throws {
        // Stored 16x24, shown 24x16: a 3x2 target is covered by 1/8 of the stored image, turned.
        let image = try Fixtures.decode("orientation_6.jpg", options: .init(targetSize: PixelSize(width: 3, height: 2)))
        #expect(image.bitmap.width == 3 && image.bitmap.height == 2)
        #expect(image.originalWidth == 24 && image.originalHeight == 16)
        #expect(isClose(image.bitmap[0, 0], Fixtures.cells[0][0], 24))
        #expect(isClose(image.bitmap[2, 1], Fixtures.cells[1][2], 24))
    }

    @Test(arguments: [
        (PixelSize(width: 3, height: 2), PixelSize(width: 3, height: 2)),  // 1/8
        (PixelSize(width: 1, height: 1), PixelSize(width: 3, height: 2)),  // nothing smaller than 1/8
        (PixelSize(width: 4, height: 2), PixelSize(width: 6, height: 4)),  // 1/4: 1/8 is 3 wide
        (PixelSize(width: 7, height: 1), PixelSize(width: 9, height: 6)),  // 3/8
        (PixelSize(width: 12, height: 8), PixelSize(width: 12, height: 8)),  // 1/2 exactly
        (PixelSize(width: 13, height: 8), PixelSize(width: 15, height: 10)),  // 5/8
        (PixelSize(width: 23, height: 16), PixelSize(width: 24, height: 16)),  // only full size covers
        (PixelSize(width: 500, height: 500), PixelSize(width: 24, height: 16)),  // never upscales
    ])
    func dctScalingPicksTheSmallestCoveringScale(target: PixelSize, expected: PixelSize) throws {
        let image = try Fixtures.decode("baseline.jpg", options: .init(targetSize: target))
        #expect(PixelSize(width: image.bitmap.width, height: image.bitmap.height) == expected)
        #expect(image.originalWidth == 24 && image.originalHeight == 16)
    }

    @Test func scaledDecodeKeepsColours() throws {
        let image = try Fixtures.decode("progressive.jpg", options: .init(targetSize: PixelSize(width: 12, height: 8)))
        expectCells(image.bitmap, Fixtures.cells, cell: 4, tolerance: 16)
    }

    @Test func truncatedJPEGDrawsWhatItHasAndWarns() throws {
        let image = try Fixtures.decode("truncated.jpg")
        #expect(image.bitmap.width == 64 && image.bitmap.height == 48)
        let warning = try #require(image.warning)
        #expect(warning.contains("Premature end of JPEG file"))
        #expect(warning.contains("drawn as far as it goes"))
        #expect(isClose(image.bitmap[2, 2], Fixtures.cells[0][0], 16))
    }

    @Test func corruptJPEGIsATypedError() throws {
        let error = try #require(Fixtures.error(decoding: "corrupt.jpg"))
        #expect(error == .corrupt(.jpeg, reason: "tjDecompressHeader3: Unsupported marker type 0x42"))
        #expect(error.description == "the JPEG data is damaged: tjDecompressHeader3: Unsupported marker type 0x42")
    }

    @Test func jpegWithoutFrameHeaderIsATypedError() throws {
        let error = try #require(Fixtures.error(decoding: "header_only.jpg"))
        #expect(error == .corrupt(.jpeg, reason: "the file is cut short: it ends inside its headers, before any "
            + "image data"))
    }
}
