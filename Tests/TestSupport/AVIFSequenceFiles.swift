import Codecs
import Foundation
import Pixels

/// AVIF image sequences made at test time by Debian's `avifenc` (libavif-bin) from PNG frames, as the still AVIFs of
/// `NewerFormatFiles` are, and patched into hostile shapes.
public enum AVIFSequenceFiles {
    /// One frame to encode: a PNG file and how long it shows, in ticks of the sequence's timescale.
    public typealias Frame = (png: String, ticks: Int)

    /// Encodes `frames` into one AVIF sequence at `output` (lossless unless told: 8 bits, 4:4:4; `timescale` ticks a
    /// second), with `extra` options (`--irot 1`, `--imir 0`) before the frames; returns `output`.
    @discardableResult
    public static func make(_ frames: [Frame], timescale: Int = 1000, lossless: Bool = true, extra: [String] = [],
                            output: String) throws -> String {
        let inputs = frames.flatMap { ["--duration", "\($0.ticks)", $0.png] }
        let quality = lossless ? ["--lossless"] : []
        try NewerFormatFiles.run(["avifenc"] + quality + ["-s", "10", "--timescale", "\(timescale)"] + extra + inputs
            + [output])
        return output
    }

    /// A bundled photo's path (`Resources/demo/photos`).
    public static func photo(_ name: String) -> String {
        NewerFormatFiles.photos.appendingPathComponent(name).path
    }

    /// `count` PNG frames of a white bar stepping across a black `width` x `height` picture, 16 pixels a frame, in
    /// `directory`; their paths.
    public static func steppingBar(width: Int = 96, height: Int = 64, count: Int,
                                   in directory: URL) throws -> [String] {
        try (0..<count).map { frame in
            let indices = (0..<height).flatMap { _ in (0..<width).map { x in UInt8(x / 16 == frame ? 1 : 0) } }
            let png = try PNGEncoder.indexed(width: width, height: height,
                                             palette: [.init(r: 0, g: 0, b: 0), .init(r: 255, g: 255, b: 255)],
                                             indices: indices)
            let path = directory.appendingPathComponent("bar-\(frame).png").path
            try Data(png).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    /// `file` with every track header (`tkhd`) declaring `width` x `height`: the size libavif takes a sequence's
    /// frames to have.
    public static func declaringTrackSize(width: Int, height: Int, in file: [UInt8]) -> [UInt8] {
        patching("tkhd", in: file) { patched, type in
            // After the type: version and flags (4), then times, ids and the matrix: 72 bytes (version 0) or 84
            // (version 1) before the width and height, 16.16 fixed point.
            let at = type + 4 + (patched[type + 4] == 1 ? 84 : 72) + 4
            patched.replaceSubrange(at..<at + 8, with: bigEndian32(width << 16) + bigEndian32(height << 16))
        }
    }

    /// `file` with the first entry of every sample-to-chunk table (`stsc`) saying its chunks hold `samples` samples:
    /// a sequence listing that many frames in a few bytes.
    public static func declaringSamplesPerChunk(_ samples: Int, in file: [UInt8]) -> [UInt8] {
        patching("stsc", in: file) { patched, type in
            // Version and flags, the entry count, the first chunk's number, then its samples.
            patched.replaceSubrange(type + 16..<type + 20, with: bigEndian32(samples))
        }
    }

    private static func patching(_ box: String, in file: [UInt8],
                                 _ patch: (inout [UInt8], _ typeOffset: Int) -> Void) -> [UInt8] {
        var patched = file
        let type = Array(box.utf8)
        var index = 0
        while index + 100 <= patched.count {
            if Array(patched[index..<index + 4]) == type { patch(&patched, index) }
            index += 1
        }
        return patched
    }

    private static func bigEndian32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
