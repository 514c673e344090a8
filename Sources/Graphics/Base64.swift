/// Standard base64 (RFC 4648, with padding): how kitty's and iTerm2's protocols carry image bytes.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)],
                    alphabet[Int(n & 63)]]
            i += 3
        }
        let left = bytes.count - i
        if left > 0 {
            let n = UInt32(bytes[i]) << 16 | (left == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)],
                    left == 2 ? alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "="), UInt8(ascii: "=")]
        }
        return out
    }

    /// The bytes base64 text stands for; nil when it is not valid base64.
    public static func decode(_ text: [UInt8]) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var i = 0
        while i < text.count {
            var n: UInt32 = 0
            var padding = 0
            for k in 0..<4 {
                let c = text[i + k]
                let value: UInt32
                switch c {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(c - UInt8(ascii: "A"))
                case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(c - UInt8(ascii: "a")) + 26
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(c - UInt8(ascii: "0")) + 52
                case UInt8(ascii: "+"): value = 62
                case UInt8(ascii: "/"): value = 63
                case UInt8(ascii: "=") where k >= 2 && i + 4 == text.count:
                    value = 0
                    padding += 1
                default: return nil
                }
                if padding > 0 && c != UInt8(ascii: "=") { return nil }
                n = n << 6 | value
            }
            out += [UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)].prefix(3 - padding)
            i += 4
        }
        return out
    }
}
