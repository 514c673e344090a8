/// Where bytes that should be UTF-8 are not: what file names and server text are checked with before they are shown.
public enum UTF8Validation {
    /// The length of the well-formed UTF-8 sequence starting at `index` (1 to 4), or 0 when none starts there
    /// (a stray continuation byte, an overlong form, a surrogate, a value past U+10FFFF, or a sequence cut short).
    public static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte >= (offset == 1 ? low : 0x80), byte <= (offset == 1 ? high : 0xBF) else { return 0 }
        }
        return length
    }

    /// Text for bytes that may not be UTF-8: valid sequences decoded, each byte that is not written `\xNN`, so that
    /// two names that differ only in their bad bytes still look different.
    public static func escapingInvalidBytes(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var result = ""
        var index = 0
        while index < bytes.count {
            let length = sequenceLength(bytes, at: index)
            if length > 0 {
                result += String(decoding: bytes[index..<(index + length)], as: UTF8.self)
                index += length
            } else {
                let hex = String(bytes[index], radix: 16, uppercase: true)
                result += "\\x" + (hex.count == 1 ? "0" + hex : hex)
                index += 1
            }
        }
        return result
    }
}
