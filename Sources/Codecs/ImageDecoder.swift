#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import LocalFiles

/// Bytes to bitmaps: sniffs the format from the data and hands it to the system library's decoder.
///
/// Every entry point is synchronous, thread-safe and free of shared state: call it from any task, off the main
/// actor. Nothing is printed; every problem comes back as a `DecodeError` or as `DecodedImage.warning`.
public enum ImageDecoder {
    /// The format the data declares by its magic number, or nil. File names and MIME types are never consulted.
    public static func sniff(_ bytes: some ContiguousBytes) -> ImageFormat? {
        bytes.withUnsafeBytes { ImageFormat(sniffing: $0) }
    }

    /// Decodes an image held in memory (`[UInt8]`, `Data`, a slice, a raw buffer).
    public static func decode(_ bytes: some ContiguousBytes,
                              options: DecodeOptions = .init()) throws(DecodeError) -> DecodedImage {
        // withUnsafeBytes only rethrows untyped errors; a Result carries the typed one through.
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(DecodeError) -> DecodedImage in try decode(buffer: buffer, options: options) }
        }.get()
    }

    /// Decodes an image whose header is already read: a JPEG's segments and scans and a PNG's chunks are not walked
    /// again (the other formats' libraries read their own headers as they decode). An image without a header fails
    /// as `decode(_:options:)` fails on its bytes. The file's embedded thumbnail is decoded instead of the image
    /// when it has the pixels `options.targetSize` needs (`ImageHeader.embeddedThumbnail(for:)`), and the image
    /// when that thumbnail does not decode cleanly.
    public static func decode(_ image: EncodedImage,
                              options: DecodeOptions = .init()) throws(DecodeError) -> DecodedImage {
        guard let header = image.header else { return try decode(image.bytes, options: options) }
        return try image.bytes.withUnsafeBytes { buffer in
            Result { () throws(DecodeError) -> DecodedImage in
                try checkSize(buffer, options: options)
                if let thumbnail = header.embeddedThumbnail(for: options),
                   let decoded = try decode(thumbnail, of: header, in: buffer, options: options) {
                    return decoded
                }
                switch header.details {
                case .jpeg(let markers, let scans):
                    return try JPEGDecoder.decode(buffer, read: (markers, scans), options: options)
                case .png(let copied):
                    return try PNGDecoder.decode(buffer, copiedBytes: copied, options: options)
                default:
                    return try decode(buffer: buffer, format: header.format, options: options)
                }
            }
        }.get()
    }

    /// Reads and decodes an image file, refusing one longer than `options.maxBytes` before reading it.
    public static func decodeFile(at path: String,
                                  options: DecodeOptions = .init()) throws(DecodeError) -> DecodedImage {
        let bytes = try readFile(at: path, limit: options.maxBytes)
        return try decode(bytes, options: options)
    }

    static func decode(buffer: UnsafeRawBufferPointer, options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        try checkSize(buffer, options: options)
        guard let format = ImageFormat(sniffing: buffer) else {
            throw .unknownFormat(firstBytes: DecodeError.describeStart(of: buffer))
        }
        return try decode(buffer: buffer, format: format, options: options)
    }

    /// Refuses empty data, and data longer than `options.maxBytes`.
    static func checkSize(_ buffer: UnsafeRawBufferPointer, options: DecodeOptions) throws(DecodeError) {
        guard !buffer.isEmpty else { throw .empty }
        guard buffer.count <= options.maxBytes else {
            throw .inputTooLarge(bytes: buffer.count, limit: options.maxBytes)
        }
    }

    /// Hands the bytes to the decoder of their format.
    private static func decode(buffer: UnsafeRawBufferPointer, format: ImageFormat,
                               options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        switch format {
        case .jpeg: return try JPEGDecoder.decode(buffer, options: options)
        case .png: return try PNGDecoder.decode(buffer, options: options)
        case .gif: return try GIFDecoder.decode(buffer, options: options)
        case .webp: return try WebPDecoder.decode(buffer, options: options)
        case .heif, .avif: return try HEIFDecoder.decode(buffer, format: format, options: options)
        case .jxl: return try JXLDecoder.decode(buffer, options: options)
        }
    }

    /// An image file's bytes, refusing one longer than `limit` before reading it, and anything that is not a
    /// regular file (a FIFO or a device would block, or read the terminal) without opening it for good.
    public static func readFile(at path: String, limit: Int = DecodeOptions().maxBytes) throws(DecodeError) -> [UInt8] {
        do {
            return try LocalFile.read(LocalPath(path), limit: limit)
        } catch {
            if case .tooLarge(let size, let limit) = error.reason { throw .inputTooLarge(bytes: size, limit: limit) }
            throw .unreadable(path: path, reason: error.shortReason)
        }
    }
}
