import Codecs
import Pixels
import Testing
import TestSupport

/// Issue 24, item 1 for animations: a GIF's frame count costs giflib time and memory even for frames that are
/// skipped (3 million 1x1 frames, 45 MB of file: 26 s and 166 MB), so a decode reads at most
/// `DecodeOptions.maxFrames` of them, kept or skipped.
@Suite struct AnimationBudgetTests {
    @Test func framesBeyondTheLimitAreNeitherKeptNorRead() throws {
        let gif = HostileImages.gif(frames: 1000)
        let kept = try ImageDecoder.decode(gif, options: DecodeOptions(maxFrames: 100))
        #expect(kept.frames.count == 100)
        #expect(kept.warning?.contains("more than the 100 frames one decode reads") == true, "\(kept.warning ?? "")")
        let thumbnail = try ImageDecoder.decode(gif, options: DecodeOptions(keepsAnimationFrames: false,
                                                                             maxFrames: 100))
        #expect(thumbnail.frames.isEmpty && thumbnail.warning == nil, "the first frame, the walk simply ends")
    }

    @Test func anAnimationWithinTheLimitIsWhole() throws {
        let gif = try ImageDecoder.decode(HostileImages.gif(frames: 50), options: DecodeOptions(maxFrames: 50))
        #expect(gif.frames.count == 50 && gif.warning == nil)
        #expect(gif.bitmap.pixels == [0, 0, 0, 255])
    }
}
