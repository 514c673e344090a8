import Codecs
import Pixels

/// The AVIF sequence player's reader on any bytes: `AnimationReader` through libavif, two loops' worth of frames.
enum AnimationFuzzing {
    /// The frames read of one input: a loop of a damaged file may be long; the limits below bound each frame.
    static let maxReads = 24

    static let avifSequence = FuzzTarget(name: "avifseq",
                                         summary: "AVIF sequences through AnimationReader (libavif), frame by frame") {
        bytes in
        guard ImageDecoder.sniff(bytes) == .avif else { return }
        let options = DecodeOptions(maxPixels: ImageFuzzing.maxPixels, maxMemory: 64 << 20, maxFrames: 1000)
        guard let reader = try? AnimationReader.open(bytes, options: options) else { return }
        let canvas = reader.canvasSize
        promise(canvas.width > 0 && canvas.height > 0 && canvas.width * canvas.height <= options.maxPixels,
                "canvas \(canvas) outside the limits")
        for _ in 0..<maxReads {
            guard let frame = try? reader.next() else { return }
            promise(frame.bitmap.width == canvas.width && frame.bitmap.height == canvas.height,
                    "frame \(frame.bitmap.width)x\(frame.bitmap.height) is not the canvas \(canvas)")
            promise(frame.delay >= .zero && frame.delay <= .seconds(3600), "delay \(frame.delay)")
        }
        promise(reader.framesPerLoop.map { $0 >= 2 && $0 <= options.maxFrames } ?? true,
                "a loop of \(reader.framesPerLoop ?? 0) frames")
    }
}
