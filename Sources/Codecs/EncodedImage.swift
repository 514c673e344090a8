/// An image's bytes and their header, read once: what the fit, the memory cost, the decode work and the decoder all
/// take, so that none of them reads the header again.
public struct EncodedImage: Sendable {
    /// The file's bytes.
    public let bytes: [UInt8]
    /// The header, or nil when it cannot be read: the image is then fitted to the whole box, costs nothing to plan,
    /// and `ImageDecoder.decode` fails at once with the decoder's own error.
    public let header: ImageHeader?

    /// Reads the header of `bytes` (`ImageDecoder.header(of:)`).
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        header = try? ImageDecoder.header(of: bytes)
    }

    /// The full size in displayed orientation, when the header says it.
    public var size: PixelSize? { header?.size }

    /// The size of the smaller copy the file carries (an EXIF thumbnail, a HEIF thumbnail item) in displayed
    /// orientation, when it has a usable one.
    public var embeddedThumbnailSize: PixelSize? { header?.embeddedThumbnail?.size }
}
