import Codecs
import Pixels
import Testing
import TestSupport

/// The test GIF writer the animation tests rely on: what it writes decodes to the frames it was asked for.
@Suite struct TestGIFTests {
    @Test func itsFramesDecodeToThePixelsAskedFor() throws {
        let gif = TestGIF.animated(width: 30, height: 20, frames: 3, delay: 7,
                                   palette: [(0, 0, 0), (255, 255, 255), (255, 0, 0)]) { f, x, _ in
            x / 10 == f ? 1 : (x % 2 == 0 ? 2 : 0)
        }
        let image = try ImageDecoder.decode(gif)
        try #require(image.frames.count == 3 && image.warning == nil)
        for (f, frame) in image.frames.enumerated() {
            #expect(frame.delay == .milliseconds(70))
            for x in 0..<30 {
                let expected = x / 10 == f ? RGBA(r: 255, g: 255, b: 255)
                    : (x % 2 == 0 ? RGBA(r: 255, g: 0, b: 0) : RGBA(r: 0, g: 0, b: 0))
                #expect(frame.bitmap[x, 19] == expected, "frame \(f), x \(x)")
            }
        }
    }
}
