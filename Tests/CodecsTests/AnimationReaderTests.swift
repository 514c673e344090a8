import Codecs
import Pixels
import Testing
import TestSupport

/// Issue 30, item 3: an animation read frame by frame for the detail pane, looping, holding only what the next frame
/// needs, with the frames a full decode keeps.
@Suite struct AnimationReaderTests {
    @Test(arguments: ["animated.gif", "animated.webp"])
    func framesAreThoseOfAFullDecodeAndLoop(name: String) throws {
        // Given the frames a full decode keeps
        let bytes = try Fixtures.bytes(name)
        let decoded = try ImageDecoder.decode(bytes).frames
        try #require(decoded.count >= 2)

        // When the reader reads two loops and one frame more
        let reader = try #require(try AnimationReader.open(bytes))
        #expect(reader.canvasSize == PixelSize(width: decoded[0].bitmap.width, height: decoded[0].bitmap.height))
        #expect(reader.framesPerLoop == nil, "unknown until a loop has ended")
        var read: [AnimationFrame] = []
        for _ in 0..<(2 * decoded.count + 1) { read.append(try reader.next()) }

        // Then each loop is the decode's frames, in order, with their delays
        #expect(Array(read[0..<decoded.count]) == decoded)
        #expect(Array(read[decoded.count..<(2 * decoded.count)]) == decoded)
        #expect(read.last == decoded[0])
        #expect(reader.framesPerLoop == decoded.count && reader.warning == nil)
    }

    @Test(arguments: ["baseline.jpg", "rgb.png", "lossy_alpha.webp", "still.gif"])
    func aStillImageIsNoAnimation(name: String) throws {
        #expect(try AnimationReader.open(Fixtures.bytes(name)) == nil)
    }

    @Test func badBytesFailAsADecodeDoes() {
        #expect(throws: DecodeError.empty) { try AnimationReader.open([UInt8]()) }
        #expect(throws: DecodeError.unknownFormat(firstBytes: "6E 6F 74 20 61 6E 20 69 (\"not an i\")")) {
            try AnimationReader.open(Array("not an image".utf8))
        }
        #expect(throws: DecodeError.inputTooLarge(bytes: 110, limit: 10)) {
            try AnimationReader.open(HostileImages.gif(frames: 6), options: DecodeOptions(maxBytes: 10))
        }
    }

    @Test func aLongAnimationPlaysWithinMemoryAFullDecodeCannotKeep() throws {
        // Given 1000 frames on a 200x200 screen (160 KB a canvas) and 1 MB for a decode
        var gif = HostileImages.gif(frames: 1000)
        gif.replaceSubrange(6..<10, with: [200, 0, 200, 0])
        let options = DecodeOptions(maxMemory: 1 << 20)
        #expect(try ImageDecoder.decode(gif, options: options).frames.count < 10, "keeping them runs out")

        // When they are played, then every frame is read and the loop starts again
        let reader = try #require(try AnimationReader.open(gif, options: options))
        for _ in 0..<1001 { _ = try reader.next() }
        #expect(reader.framesPerLoop == 1000 && reader.warning == nil)
    }

    @Test(arguments: ["animated.gif", "animated.webp", "many.gif"])
    func aPlayedLoopIsNotHeldToThePixelsAFullDecodeMayRead(name: String) throws {
        // Given a pixel limit a full decode reaches within two frames (a 1080p clip reaches 100 megapixels in 48)
        let bytes = name == "many.gif" ? HostileImages.gif(frames: 300) : try Fixtures.bytes(name)
        let all = try ImageDecoder.decode(bytes).frames
        let canvas = all[0].bitmap.width * all[0].bitmap.height
        let options = DecodeOptions(maxPixels: canvas * 3 / 2)
        let kept = try ImageDecoder.decode(bytes, options: options)
        #expect(kept.frames.count < all.count && kept.warning != nil, "a decode that keeps frames stops early")

        // When the frames are played
        let reader = try #require(try AnimationReader.open(bytes, options: options))
        for _ in 0...all.count { _ = try reader.next() }

        // Then every frame plays: a frame is read only to be shown, so the clock bounds the work
        #expect(reader.framesPerLoop == all.count && reader.warning == nil, "\(reader.warning ?? "")")
    }

    @Test func aLoopEndsAtTheFrameLimit() throws {
        let reader = try #require(try AnimationReader.open(HostileImages.gif(frames: 1000),
                                                           options: DecodeOptions(maxFrames: 100)))
        for _ in 0..<101 { _ = try reader.next() }
        #expect(reader.framesPerLoop == 100)
        #expect(reader.warning?.contains("more than the 100 frames one decode reads") == true)
    }

    @Test func aDamagedAnimationLoopsTheFramesItHas() throws {
        // Cut inside the fourth frame: three frames play, and the warning says why there are no more
        let reader = try #require(try AnimationReader.open(Fixtures.bytes("truncated_animation.gif")))
        for _ in 0..<4 { _ = try reader.next() }
        #expect(reader.framesPerLoop == 3)
        #expect(reader.warning?.hasPrefix("the GIF data is damaged or cut short after 3 frame(s)") == true,
                "\(reader.warning ?? "")")
    }

    @Test func aReadInACancelledTaskStops() async throws {
        let bytes = try Fixtures.bytes("animated.webp")
        let task = Task { () -> DecodeError? in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(DecodeError) {
                _ = try AnimationReader.open(bytes)?.next()
                return nil
            } catch {
                return error
            }
        }
        #expect(await task.value == .cancelled)
    }

    @Test(arguments: [(0, 100), (10, 100), (11, 20), (19, 20), (20, 20), (70, 70)])
    func displayTimeHasTheBrowsersFloor(milliseconds: Int, shown: Int) {
        let frame = AnimationFrame(bitmap: Bitmap(width: 1, height: 1, fill: RGBA(r: 0, g: 0, b: 0)), delay: .milliseconds(milliseconds))
        #expect(frame.displayTime == .milliseconds(shown))
    }
}
