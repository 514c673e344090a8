/// Why bytes could not become a bitmap, in words a user can act on.
///
/// Messages do not name the input: the caller knows the file or URL and puts it in front.
public enum DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The data has no bytes at all.
    case empty
    /// The bytes are none of the formats we decode; `firstBytes` shows the start, e.g. `3C 68 74 6D ("<htm")`.
    case unknownFormat(firstBytes: String)
    /// The input is longer than `DecodeOptions.maxBytes`.
    case inputTooLarge(bytes: Int, limit: Int)
    /// The header declares more pixels than `DecodeOptions.maxPixels`.
    case imageTooLarge(width: Int, height: Int, limit: Int)
    /// Decoding the image would allocate `bytes` bytes (bitmap and working memory, see `ImageDecoder.memoryCost`),
    /// more than `limit`: `DecodeOptions.maxMemory`, or the capacity of a `DecodeMemoryBudget`.
    case needsTooMuchMemory(bytes: Int, limit: Int)
    /// Decoding the JPEG would visit `blockScans` 8x8 blocks over its `scans` scans (`JPEGScanWork`), more than
    /// `limit` (`DecodeOptions.maxBlockScans`): a file made to burn CPU time, or one far beyond a photo's shape.
    case needsTooMuchWork(scans: Int, blockScans: Int, limit: Int)
    /// The data is damaged or cut short; `reason` says how, in the library's words where it has them.
    case corrupt(ImageFormat, reason: String)
    /// A valid file that uses something the system library cannot decode.
    case unsupported(ImageFormat, reason: String)
    /// A file could not be read (missing, a directory, no permission).
    case unreadable(path: String, reason: String)
    /// The task the decode ran in was cancelled, and the decode stopped part way (`DecodeCancellation`).
    case cancelled

    public var description: String {
        switch self {
        case .empty:
            "the image data is empty (0 bytes): the file or download has nothing in it"
        case .unknownFormat(let firstBytes):
            "not a JPEG, PNG, GIF, WebP, HEIF, AVIF or JPEG XL image: the data starts with \(firstBytes)"
        case .inputTooLarge(let bytes, let limit):
            "the image data is \(Self.byteCount(bytes)), above the \(Self.byteCount(limit)) limit; "
                + "raise the byte limit (DecodeOptions.maxBytes) to decode it"
        case .imageTooLarge(let width, let height, let limit):
            "the image is \(width)x\(height) pixels (\(Self.megapixels(Double(width) * Double(height)))), above "
                + "the \(Self.megapixels(Double(limit))) limit; raise the pixel limit (DecodeOptions.maxPixels) to "
                + "decode it"
        case .needsTooMuchMemory(let bytes, let limit):
            "decoding the image needs \(Self.byteCount(bytes)) of memory, above the \(Self.byteCount(limit)) one "
                + "decode may use; raise the memory limit (DecodeOptions.maxMemory) to decode it"
        case .needsTooMuchWork(let scans, let blockScans, let limit):
            "the JPEG's \(scans) scans would decode \(Self.millions(blockScans)) blocks of 8x8 pixels, above the "
                + "\(Self.millions(limit)) one decode may take; raise the work limit (DecodeOptions.maxBlockScans) "
                + "to decode it"
        case .corrupt(let format, let reason):
            "the \(format.displayName) data is damaged: \(reason)"
        case .unsupported(let format, let reason):
            "this \(format.displayName) image cannot be decoded here: \(reason)"
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .cancelled:
            "the decode was stopped: the picture is no longer wanted"
        }
    }

    /// `firstBytes` for `unknownFormat`: up to 8 bytes in hex, then the printable ASCII among them.
    static func describeStart(of bytes: UnsafeRawBufferPointer) -> String {
        let head = bytes.prefix(8)
        let hex = head.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
        let text = String(decoding: head.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
        return "\(hex) (\"\(text)\")"
    }

    private static func byteCount(_ bytes: Int) -> String {
        let mib = Double(bytes) / Double(1 << 20)
        if bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        return mib >= 1 ? "\((mib * 10).rounded() / 10) MB" : "\(bytes) bytes"
    }

    private static func millions(_ count: Int) -> String {
        count >= 10_000_000 ? "\(count / 1_000_000) million"
            : count >= 1_000_000 ? "\(Double(count / 100_000) / 10) million" : "\(count)"
    }

    private static func megapixels(_ pixels: Double) -> String {
        let mp = pixels / 1_000_000
        return mp >= 10 ? "\(Int(mp.rounded())) megapixels" : "\((mp * 10).rounded() / 10) megapixels"
    }
}
