/// An image file format the decoders understand.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp
    /// HEIF: HEIC photos (iPhones) and other HEIF stills, decoded by libheif.
    case heif
    /// AVIF (AV1 in HEIF), decoded by libheif's AV1 decoder.
    case avif
    /// JPEG XL, bare codestream or container, decoded by libjxl.
    case jxl

    /// The format the bytes declare by their magic number, or nil; file names and MIME types are never consulted.
    init?(sniffing bytes: UnsafeRawBufferPointer) {
        func starts(with magic: [UInt8], at offset: Int = 0) -> Bool {
            guard bytes.count >= offset + magic.count else { return false }
            for (i, byte) in magic.enumerated() where bytes[offset + i] != byte { return false }
            return true
        }
        if starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else if starts(with: Array("RIFF".utf8)) && starts(with: Array("WEBP".utf8), at: 8) {
            self = .webp
        } else if let format = Self.sniffingNewerFormats(bytes) {
            self = format
        } else {
            return nil
        }
    }

    /// The name users know the format by, for messages.
    public var displayName: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .gif: "GIF"
        case .webp: "WebP"
        case .heif: "HEIF"
        case .avif: "AVIF"
        case .jxl: "JPEG XL"
        }
    }
}
