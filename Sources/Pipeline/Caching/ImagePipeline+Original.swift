import Codecs
import FoundationEssentials

/// An image's original bytes, for saving them as they came.
extension ImagePipeline {
    /// The bytes of `url` as the server or the file gave them, and the file extension of the format they sniff as
    /// (nil for bytes no decoder knows): from the memory cache, the disk cache, or a download shared with any
    /// render job of that URL. Throws `PipelineError` as a load does.
    public func original(_ url: URL) async throws -> (bytes: [UInt8], fileExtension: String?) {
        let (data, _, _) = try await bytes(for: url)
        return (data.bytes, ImageDecoder.sniff(data.bytes).map(Self.fileExtension))
    }

    /// The extension a saved file of this format gets: the one image viewers and file managers expect.
    static func fileExtension(_ format: ImageFormat) -> String {
        switch format {
        case .jpeg: "jpg"
        case .png: "png"
        case .gif: "gif"
        case .webp: "webp"
        case .heif: "heic"
        case .avif: "avif"
        case .jxl: "jxl"
        }
    }
}
