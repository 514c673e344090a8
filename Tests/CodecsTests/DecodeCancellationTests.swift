import Codecs
import Dispatch
import Pixels
import Testing
import TestSupport

/// Issue 24, item 3's last gap: a decode whose task is cancelled stops part way, between rows (PNG), rows of blocks
/// in every scan (JPEG) or frames (GIF, WebP animations), and says so with `DecodeError.cancelled`. Without it the
/// decodes below would run to the end and succeed: that success is what each test rules out.
@Suite struct DecodeCancellationTests {
    /// The file, allowed to decode (11 s of CPU when nothing stops it): its task is cancelled once the decode
    /// is under way, and the decode ends cancelled.
    @Test func aHostileProgressiveJPEGStopsWhenItsTaskIsCancelled() async throws {
        let hostile = HostileImages.progressiveJPEG(side: 8192, scans: 499)
        let options = DecodeOptions(targetSize: PixelSize(width: 16, height: 16), maxBlockScans: .max)
        let result = await Self.decodeCancelledOnceStarted(hostile, options: options)
        #expect(result == .failure(.cancelled))
    }

    /// A task cancelled before the decode starts gets no picture from any decoder.
    @Test(arguments: ["progressive.jpg", "baseline.jpg", "rgb.png", "interlaced.png", "animated.gif",
                      "animated.webp"])
    func everyDecoderAsksBeforeItsWork(name: String) async throws {
        let bytes = try Fixtures.bytes(name)
        let task = Task { () -> Result<DecodedImage, DecodeError> in
            withUnsafeCurrentTask { $0?.cancel() }
            return Result { () throws(DecodeError) -> DecodedImage in try ImageDecoder.decode(bytes) }
        }
        let result = await task.value
        #expect(result.map { _ in 0 } == .failure(.cancelled), "\(name)")
    }

    /// Outside a cancelled task nothing changes: the same files decode.
    @Test func anUncancelledDecodeIsWhole() throws {
        let png = try ImageDecoder.decode(HostileImages.plainPNG(side: 64))
        #expect(png.bitmap.width == 64)
        let jpeg = try ImageDecoder.decode(HostileImages.progressiveJPEG(side: 256, scans: 40))
        #expect(jpeg.bitmap.width == 256)
    }

    /// Decodes in a task that is cancelled once it has signalled that the decode is about to start: the cancel
    /// lands before the decoder's first check or during its work, and either way the decode must end cancelled.
    /// The cancel comes from a Dispatch thread: the decode holds a thread of the cooperative pool, and other suites'
    /// work may hold the rest, so a task could wait out the whole decode before it ran.
    private static func decodeCancelledOnceStarted(_ bytes: [UInt8],
                                                   options: DecodeOptions) async -> Result<Int, DecodeError> {
        let started = DispatchSemaphore(value: 0)
        let task = Task.detached { () -> Result<Int, DecodeError> in
            started.signal()
            return Result { () throws(DecodeError) -> Int in
                try ImageDecoder.decode(bytes, options: options).bitmap.width
            }
        }
        DispatchQueue.global().async {
            started.wait()
            task.cancel()
        }
        return await task.value
    }
}
