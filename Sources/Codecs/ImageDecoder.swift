#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

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

    /// Reads and decodes an image file, refusing one longer than `options.maxBytes` before reading it.
    public static func decodeFile(at path: String,
                                  options: DecodeOptions = .init()) throws(DecodeError) -> DecodedImage {
        let bytes = try readFile(at: path, limit: options.maxBytes)
        return try decode(bytes, options: options)
    }

    static func decode(buffer: UnsafeRawBufferPointer, options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        guard !buffer.isEmpty else { throw .empty }
        guard buffer.count <= options.maxBytes else {
            throw .inputTooLarge(bytes: buffer.count, limit: options.maxBytes)
        }
        guard let format = ImageFormat(sniffing: buffer) else {
            throw .unknownFormat(firstBytes: DecodeError.describeStart(of: buffer))
        }
        switch format {
        case .jpeg: return try JPEGDecoder.decode(buffer, options: options)
        case .png: return try PNGDecoder.decode(buffer, options: options)
        case .gif: return try GIFDecoder.decode(buffer, options: options)
        case .webp: return try WebPDecoder.decode(buffer, options: options)
        }
    }

    /// The whole file, read with POSIX calls so that its size is checked against `limit` before any byte is read.
    /// Reads an image file's bytes, refusing one longer than `limit` before reading it.
    public static func readFile(at path: String, limit: Int = DecodeOptions().maxBytes) throws(DecodeError) -> [UInt8] {
        func failure(_ what: String) -> DecodeError {
            .unreadable(path: path, reason: "\(what): \(String(cString: strerror(errno)))")
        }
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw failure("open") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("fstat") }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .unreadable(path: path, reason: "not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= limit else { throw .inputTooLarge(bytes: size, limit: limit) }
        var readError: DecodeError?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while count < size {
                let n = read(fd, buffer.baseAddress! + count, size - count)
                if n > 0 {
                    count += n
                } else if n == 0 {
                    break  // the file shrank while we read it; decode what there is
                } else if errno != EINTR {
                    readError = failure("read")
                    break
                }
            }
        }
        if let readError { throw readError }
        return bytes
    }
}
