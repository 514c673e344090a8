import CTurboJPEG
import Pixels

/// Encodes a bitmap as a baseline JPEG through TurboJPEG: what the demo server sends as its numbered photos, small
/// enough to fill a disk cache with thousands of them.
public enum JPEGEncoder {
    /// Why a bitmap could not be encoded.
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The JPEG of `bitmap` (alpha dropped) at `quality` (1...100), chroma subsampled 4:2:0.
    public static func encode(_ bitmap: Bitmap, quality: Int = 80) throws(Error) -> [UInt8] {
        guard bitmap.width >= 1, bitmap.height >= 1 else {
            throw Error(description: "a JPEG needs at least 1x1 pixels, not \(bitmap.width)x\(bitmap.height)")
        }
        guard let handle = tjInitCompress() else { throw Error(description: "tjInitCompress failed") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = bitmap.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, Int32(bitmap.width), Int32(bitmap.width * 4), Int32(bitmap.height),
                        Int32(TJPF_RGBA.rawValue), &output, &size, Int32(TJSAMP_420.rawValue),
                        Int32(min(100, max(1, quality))), 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            let reason = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
            throw Error(description: "tjCompress2: \(reason)")
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
