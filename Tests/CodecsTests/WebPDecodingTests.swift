import Codecs
import Pixels
import Testing

@Suite struct WebPDecodingTests {
    /// The colour cells with the alpha of each, as rgba.png and the WebP fixtures have them.
    static var cellsWithAlpha: [[RGBA]] {
        zip(Fixtures.cells, Fixtures.alphas).map { colours, alphas in
            zip(colours, alphas).map { colour, alpha in RGBA(r: colour.r, g: colour.g, b: colour.b, a: alpha) }
        }
    }

    @Test func losslessKeepsExactStraightAlpha() throws {
        let image = try Fixtures.decode("lossless_alpha.webp")
        #expect(image.format == .webp)
        #expect(image.originalWidth == 24 && image.originalHeight == 16)
        expectCells(image.bitmap, Self.cellsWithAlpha, tolerance: 0)
    }

    @Test func lossyWithAlpha() throws {
        let bitmap = try Fixtures.decode("lossy_alpha.webp").bitmap
        #expect(bitmap.width == 48 && bitmap.height == 32)
        for (cy, row) in Self.cellsWithAlpha.enumerated() {
            for (cx, want) in row.enumerated() {
                let got = bitmap[cx * 16 + 8, cy * 16 + 8]
                #expect(got.a == want.a)
                // The encoder may drop the colour under fully transparent pixels.
                if want.a > 0 { #expect(isClose(got, want, 24), "cell \(cx),\(cy): \(got)") }
            }
        }
    }

    @Test(arguments: [
        (PixelSize(width: 12, height: 8), PixelSize(width: 12, height: 8)),  // a quarter, exactly
        (PixelSize(width: 13, height: 2), PixelSize(width: 13, height: 9)),  // width decides, height rounds up
        (PixelSize(width: 3, height: 10), PixelSize(width: 15, height: 10)),  // height decides
        (PixelSize(width: 48, height: 1), PixelSize(width: 48, height: 32)),  // full width needed: full size
        (PixelSize(width: 100, height: 100), PixelSize(width: 48, height: 32)),  // never upscales
    ])
    func scalesToTheSmallestCoveringSize(target: PixelSize, expected: PixelSize) throws {
        let image = try Fixtures.decode("lossy_alpha.webp", options: .init(targetSize: target))
        #expect(PixelSize(width: image.bitmap.width, height: image.bitmap.height) == expected)
        #expect(image.originalWidth == 48 && image.originalHeight == 32)
    }

    @Test func scaledLossyKeepsColours() throws {
        let image = try Fixtures.decode("lossy_alpha.webp", options: .init(targetSize: PixelSize(width: 12, height: 8)))
        #expect(isClose(image.bitmap[2, 2], Self.cellsWithAlpha[0][0], 32))
        #expect(isClose(image.bitmap[10, 6], Self.cellsWithAlpha[1][2], 32))
    }

    @Test func animationKeepsFramesAndDelays() throws {
        let image = try Fixtures.decode("animated.webp")
        #expect(image.originalWidth == 10 && image.originalHeight == 6)
        try #require(image.frames.count == 2)
        #expect(image.frames.map(\.delay) == [.milliseconds(120), .milliseconds(80)])
        #expect(image.bitmap[5, 3] == RGBA(r: 255, g: 0, b: 0))
        #expect(image.frames[1].bitmap[5, 3] == RGBA(r: 0, g: 0, b: 255))
    }

    @Test func animationThumbnailHasOneFrame() throws {
        let image = try Fixtures.decode("animated.webp", options: .init(keepsAnimationFrames: false))
        #expect(image.frames.isEmpty)
        #expect(image.bitmap[0, 0] == RGBA(r: 255, g: 0, b: 0))
        // Leaving the other frames out is what was asked for, not a limit that was hit.
        #expect(image.warning == nil)
    }

    @Test func framesStayWithinTheMemoryLimit() throws {
        // A 10x6 canvas is 240 bytes: libwebp's two canvases and our first frame take 720, the second frame 960.
        let one = try Fixtures.decode("animated.webp", options: .init(maxMemory: 959))
        #expect(one.frames.isEmpty)
        #expect(one.warning == "only the first 1 frames are kept: with the next one the frames would need more "
            + "than the 959 bytes one decode may use")
        let both = try Fixtures.decode("animated.webp", options: .init(maxMemory: 960))
        #expect(both.frames.count == 2 && both.warning == nil)
    }

    @Test func framesStayWithinThePixelLimitAtTheirOwnSizes() throws {
        // Two frames of 10x6 as stored: 120 pixels decoded in all.
        let one = try Fixtures.decode("animated.webp", options: .init(maxPixels: 119))
        #expect(one.frames.isEmpty)
        #expect(one.warning == "only the first 1 frames are kept: with the next one the frames would exceed the "
            + "limit of 119 pixels")
        #expect(try Fixtures.decode("animated.webp", options: .init(maxPixels: 120)).frames.count == 2)
    }

    @Test func truncatedWebPIsATypedError() throws {
        let error = try #require(Fixtures.error(decoding: "truncated.webp"))
        #expect(error == .corrupt(.webp, reason: "WebPDecode: the data ends early (cut short)"))
        #expect(error.description == "the WebP data is damaged: WebPDecode: the data ends early (cut short)")
    }

    @Test func pixelLimitAppliesToWebP() throws {
        let error = try #require(Fixtures.error(decoding: "lossy_alpha.webp", options: .init(maxPixels: 1000)))
        #expect(error == .imageTooLarge(width: 48, height: 32, limit: 1000))
    }
}
