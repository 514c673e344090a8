import Codecs
import Pixels
import Testing

@Suite struct GIFDecodingTests {
    static let clear = RGBA(r: 0, g: 0, b: 0, a: 0)
    static let red = RGBA(r: 255, g: 0, b: 0), green = RGBA(r: 0, g: 255, b: 0)
    static let blue = RGBA(r: 0, g: 0, b: 255), yellow = RGBA(r: 255, g: 255, b: 0)

    /// animated.gif as a browser shows it: 12x8, four frames (see make_fixtures.py).
    static func expectedFrame(_ index: Int, x: Int, y: Int) -> RGBA {
        switch index {
        case 0: return x < 6 ? red : clear
        case 1: return x < 6 ? red : (y < 4 ? green : clear)  // green frame over the transparent half
        case 2: return x < 6 ? (y < 4 ? red : blue) : clear  // green disposed to background (transparent)
        default:  // blue restored to previous, then yellow at (3, 2) 6x4
            if (3..<9).contains(x) && (2..<6).contains(y) { return yellow }
            return x < 6 ? red : clear
        }
    }

    static func expectFrame(_ bitmap: Bitmap, _ index: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(bitmap.width == 12 && bitmap.height == 8, sourceLocation: sourceLocation)
        var wrong: [String] = []
        for y in 0..<8 {
            for x in 0..<12 where bitmap[x, y] != expectedFrame(index, x: x, y: y) {
                wrong.append("(\(x),\(y)) \(bitmap[x, y])")
            }
        }
        #expect(wrong.isEmpty, "frame \(index + 1): \(wrong.prefix(5))", sourceLocation: sourceLocation)
    }

    @Test func firstFrameIsCompositedOnATransparentCanvas() throws {
        let image = try Fixtures.decode("animated.gif")
        #expect(image.format == .gif)
        #expect(image.originalWidth == 12 && image.originalHeight == 8)
        #expect(image.warning == nil)
        Self.expectFrame(image.bitmap, 0)
    }

    @Test func keepsEveryFrameWithItsDelay() throws {
        let image = try Fixtures.decode("animated.gif")
        try #require(image.frames.count == 4)
        #expect(image.frames.map(\.delay) == [.milliseconds(100), .milliseconds(200), .milliseconds(50), .zero])
        for (index, frame) in image.frames.enumerated() {
            Self.expectFrame(frame.bitmap, index)
        }
        #expect(image.frames[0].bitmap == image.bitmap)
    }

    @Test func thumbnailsSkipTheOtherFrames() throws {
        let image = try Fixtures.decode("animated.gif", options: .init(keepsAnimationFrames: false))
        #expect(image.frames.isEmpty)
        #expect(image.warning == nil)
        Self.expectFrame(image.bitmap, 0)
    }

    @Test func framesStayWithinThePixelLimitAtTheirOwnSizes() throws {
        // Frames of 12x8, 6x4, 6x4 and 6x4 pixels: 96 + 24 fit in 130, a third does not.
        let image = try Fixtures.decode("animated.gif", options: .init(maxPixels: 130))
        #expect(image.frames.count == 2)
        #expect(image.warning == "only the first 2 frames are kept: with the next one the frames would exceed the "
            + "limit of 130 pixels")
    }

    @Test func framesLargerThanTheCanvasCountAtTheirOwnSize() throws {
        // Given the animation with its logical screen shrunk to 2x2: its frames (12x8, then 6x4) overhang it
        var bytes = try Fixtures.bytes("animated.gif")
        bytes.replaceSubrange(6..<10, with: [2, 0, 2, 0])

        // When it is decoded within 100 pixels, then the second frame's 24 pixels are over (96 + 24), whatever the
        // canvas's 4 pixels a frame would allow
        let image = try ImageDecoder.decode(bytes, options: .init(maxPixels: 100))
        #expect(image.frames.isEmpty)
        #expect(image.warning == "only the first 1 frames are kept: with the next one the frames would exceed the "
            + "limit of 100 pixels")
        #expect(image.bitmap[1, 1] == Self.red)
    }

    @Test func framesStayWithinTheMemoryLimit() throws {
        // The 384-byte canvas and 96 bytes of indices, then a 384-byte canvas a kept frame, and before the fourth
        // frame the canvas the third one restores: 480, 864, 1248, then 2016 bytes.
        let image = try Fixtures.decode("animated.gif", options: .init(maxMemory: 1300))
        #expect(image.frames.count == 3)
        #expect(image.warning == "only the first 3 frames are kept: with the next one the frames would need more "
            + "than the 1300 bytes one decode may use")
        #expect(try Fixtures.decode("animated.gif", options: .init(maxMemory: 2016)).frames.count == 4)
    }

    @Test func truncatedAnimationWarnsWhenOnlyItsFirstFrameIsDecoded() throws {
        // Cut inside the fourth frame: the thumbnail decodes the first and walks past the others' data
        let image = try Fixtures.decode("truncated_animation.gif", options: .init(keepsAnimationFrames: false))
        Self.expectFrame(image.bitmap, 0)
        let warning = try #require(image.warning)
        #expect(warning.hasPrefix("the GIF data is damaged or cut short after 3 frame(s) (DGifGetCode: "), "\(warning)")
    }

    @Test(arguments: ["animated.gif", "still.gif", "truncated_frame.gif"], [false, true])
    func everyCutWarnsOrFails(name: String, keepingFrames: Bool) throws {
        // Given a GIF cut after each of its bytes in turn
        let whole = try Fixtures.bytes(name)
        for length in 1..<whole.count {
            // When it is decoded, then it either fails or comes with a warning: never a silent picture
            do {
                let image = try ImageDecoder.decode(Array(whole.prefix(length)),
                                                    options: .init(keepsAnimationFrames: keepingFrames))
                #expect(image.warning != nil, "\(name) cut to \(length) of \(whole.count) bytes decodes silently")
            } catch {
                continue
            }
        }
    }

    @Test(arguments: [false, true])
    func missingTrailerWarns(keepingFrames: Bool) throws {
        // The whole animation but its last byte, the trailer that says the file ends there
        let bytes = try Fixtures.bytes("animated.gif").dropLast()
        let image = try ImageDecoder.decode(Array(bytes), options: .init(keepsAnimationFrames: keepingFrames))
        Self.expectFrame(image.bitmap, 0)
        let warning = try #require(image.warning)
        #expect(warning.hasPrefix("the GIF data is damaged or cut short after 4 frame(s) (DGifGetRecordType: "),
                "\(warning)")
    }

    @Test func stillGIFWrittenByPillow() throws {
        let image = try Fixtures.decode("still.gif")
        #expect(image.frames.isEmpty)
        expectCells(image.bitmap, Fixtures.cells, tolerance: 0)
    }

    @Test func truncatedAnimationKeepsItsWholeFramesAndWarns() throws {
        let image = try Fixtures.decode("truncated_animation.gif")
        #expect(image.frames.count == 3)
        let warning = try #require(image.warning)
        #expect(warning.hasPrefix("the GIF data is damaged or cut short after 3 frame(s) (DGifGetLine: "))
    }

    @Test func truncatedFirstFrameIsDrawnAsFarAsItGoes() throws {
        let image = try Fixtures.decode("truncated_frame.gif")
        #expect(image.bitmap.width == 24 && image.bitmap.height == 16)
        let warning = try #require(image.warning)
        #expect(warning.hasPrefix("the GIF data is damaged or cut short in its first frame (DGifGetLine: "))
        #expect(image.bitmap[4, 4] == Fixtures.cells[0][0])
        #expect(image.bitmap[20, 15].a == 0)  // never decoded: left transparent
    }

    @Test func truncatedBeforeAnyFrameIsATypedError() throws {
        let error = try #require(Fixtures.error(decoding: "truncated.gif"))
        guard case .corrupt(.gif, let reason) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(reason.hasPrefix("DGifGetExtension"))
        #expect(error.description.hasPrefix("the GIF data is damaged: DGifGetExtension"))
    }

    @Test func giantScreenIsRefusedBeforeDecoding() throws {
        let error = try #require(Fixtures.error(decoding: "giant_screen.gif"))
        #expect(error == .imageTooLarge(width: 65535, height: 65535, limit: 100_000_000))
    }
}
