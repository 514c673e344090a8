import FoundationEssentials

/// The format and stored pixel size of an image file, read from its first bytes (no decoding): what a folder's
/// detail pane shows.
struct ImageFileInfo: Sendable, Equatable {
    var format: String
    var width: Int
    var height: Int

    /// The most bytes read from the start of a file to find its size (a JPEG's EXIF block can be large).
    static let headerLimit = 1 << 20

    static func parse(_ b: [UInt8]) -> ImageFileInfo? {
        func be16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        func le16(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        func le24(_ i: Int) -> Int { le16(i) | Int(b[i + 2]) << 16 }
        func starts(_ magic: String, at offset: Int = 0) -> Bool {
            let bytes = Array(magic.utf8)
            return b.count >= offset + bytes.count && Array(b[offset..<(offset + bytes.count)]) == bytes
        }
        if b.count >= 24, b[0] == 0x89, starts("PNG", at: 1), starts("IHDR", at: 12) {
            return ImageFileInfo(format: "PNG", width: be32(16), height: be32(20))
        }
        if b.count >= 10, starts("GIF87a") || starts("GIF89a") {
            return ImageFileInfo(format: "GIF", width: le16(6), height: le16(8))
        }
        if b.count >= 30, starts("RIFF"), starts("WEBP", at: 8) {
            if starts("VP8 ", at: 12) { return ImageFileInfo(format: "WebP", width: le16(26) & 0x3FFF, height: le16(28) & 0x3FFF) }
            if starts("VP8L", at: 12) {
                let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
                return ImageFileInfo(format: "WebP", width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1)
            }
            if starts("VP8X", at: 12) { return ImageFileInfo(format: "WebP", width: le24(24) + 1, height: le24(27) + 1) }
            return nil
        }
        if let newer = parseNewer(b) { return newer }
        if b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 {
            // Walk the segments to the first start-of-frame marker, which holds the size.
            var i = 2
            while i + 9 < b.count {
                guard b[i] == 0xFF else { return nil }
                let marker = b[i + 1]
                if marker == 0xFF { i += 1; continue }
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    return ImageFileInfo(format: "JPEG", width: be16(i + 7), height: be16(i + 5))
                }
                if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
                i += 2 + be16(i + 2)
            }
        }
        return nil
    }
}
