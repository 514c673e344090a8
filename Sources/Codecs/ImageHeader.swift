import FoundationEssentials

/// What an image's header says about it: enough to plan a decode without decoding a pixel.
///
/// A caller that fits the picture inside a box needs its aspect ratio before it can say how many pixels the decoder
/// must cover: a 16:9 photo in a 2:1 box of cells fills the width and only half the height, and decoding for the
/// whole box would make JPEG decode at twice the scale it needs (every DCT step costs more entropy decoding).
public struct ImageHeader: Sendable, Equatable {
    /// The format sniffed from the bytes.
    public var format: ImageFormat
    /// The full-size width in displayed orientation (after EXIF rotation): `DecodedImage.originalWidth` to be.
    public var width: Int
    /// The full-size height in displayed orientation: `DecodedImage.originalHeight` to be.
    public var height: Int

    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}

extension ImageDecoder {
    /// The format and displayed size the data declares, read from the first bytes and segments only: microseconds,
    /// whatever the image's size. Limits are not checked here; `decode` checks them.
    public static func header(of bytes: some ContiguousBytes) throws(DecodeError) -> ImageHeader {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(DecodeError) -> ImageHeader in try header(buffer: buffer) }
        }.get()
    }

    static func header(buffer: UnsafeRawBufferPointer) throws(DecodeError) -> ImageHeader {
        guard !buffer.isEmpty else { throw .empty }
        guard let format = ImageFormat(sniffing: buffer) else {
            throw .unknownFormat(firstBytes: DecodeError.describeStart(of: buffer))
        }
        let size: PixelSize
        switch format {
        case .jpeg: size = try JPEGDecoder.displayedSize(buffer)
        case .png: size = try PNGDecoder.size(buffer)
        case .gif: size = try GIFDecoder.size(buffer)
        case .webp: size = try WebPDecoder.size(buffer)
        case .heif, .avif: size = try HEIFDecoder.size(buffer, format: format)
        case .jxl: size = try JXLDecoder.size(buffer)
        }
        return ImageHeader(format: format, width: size.width, height: size.height)
    }
}
