/// The order a folder's names are listed in: "file2" before "file10", "B" beside "b", computed on the name's bytes
/// with the standard library's Unicode tables only (no locale, no ICU), so that it is fast, the same on every
/// machine, and total over any bytes a file system may hold.
///
/// The order, precisely:
/// 1. A name is read as a sequence of tokens: each run of ASCII digits is one number token; every other Unicode
///    scalar is one character token, lower-cased by Unicode's lowercase mapping (which may give several scalars);
///    each byte that is not part of valid UTF-8 is one token of its own, after every scalar.
/// 2. Two names compare token by token. Two numbers compare by value (leading zeros ignored, any length); a number
///    against a character compares as the character "0" would (so before letters, after "-" and "."); characters
///    compare by scalar value. A name that runs out of tokens first comes first.
/// 3. Names equal so far ("File01" and "file1") compare by their bytes, so that different names are never equal and
///    the order is the same on every run.
///
/// Paths compare folder by folder: every name in a folder comes at that folder's place among its siblings.
struct NaturalSortKey: Comparable, Sendable {
    /// The tokens of rule 1, as numbers compared in order: a character is its scalar value, an invalid byte is
    /// `invalidByteBase + byte`, and a number is `numberMark`, its count of significant digits, then the digits.
    let tokens: [UInt32]
    /// The name's bytes, for rule 3.
    let bytes: [UInt8]

    /// Where a number sorts among characters: at "0".
    static let numberMark = UInt32(UInt8(ascii: "0"))
    /// Past the last Unicode scalar (0x10FFFF): a byte that is not UTF-8 sorts after every character.
    static let invalidByteBase: UInt32 = 0x110000

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        tokens = Self.tokens(of: bytes)
    }

    static func < (a: NaturalSortKey, b: NaturalSortKey) -> Bool {
        switch compare(a.tokens, b.tokens) {
        case .some(let less): less
        case .none: compare(a.bytes, b.bytes) ?? false
        }
    }

    static func == (a: NaturalSortKey, b: NaturalSortKey) -> Bool { a.bytes == b.bytes }

    /// Whether `a` comes first in lexicographic order; nil when they are equal.
    private static func compare<T: FixedWidthInteger>(_ a: [T], _ b: [T]) -> Bool? {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                let common = min(a.count, b.count)
                var i = 0
                while i < common {
                    if a[i] != b[i] { return a[i] < b[i] }
                    i += 1
                }
                return a.count == b.count ? nil : a.count < b.count
            }
        }
    }

    private static func tokens(of bytes: [UInt8]) -> [UInt32] {
        var tokens: [UInt32] = []
        tokens.reserveCapacity(bytes.count + 2)
        var i = 0
        let zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9")
        while i < bytes.count {
            let byte = bytes[i]
            if byte >= zero && byte <= nine {
                var end = i
                while end < bytes.count, bytes[end] >= zero, bytes[end] <= nine { end += 1 }
                var first = i
                while first < end - 1, bytes[first] == zero { first += 1 }  // "000" keeps one zero
                tokens.append(numberMark)
                tokens.append(UInt32(end - first))
                for digit in bytes[first..<end] { tokens.append(UInt32(digit)) }
                i = end
            } else if byte < 0x80 {
                // ASCII: the common case, lower-cased without Unicode's tables.
                let isUpper = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
                tokens.append(UInt32(isUpper ? byte | 0x20 : byte))
                i += 1
            } else if let (scalar, length) = decodeScalar(bytes, at: i) {
                if scalar.properties.changesWhenLowercased {
                    for lower in scalar.properties.lowercaseMapping.unicodeScalars { tokens.append(lower.value) }
                } else {
                    tokens.append(scalar.value)
                }
                i += length
            } else {
                tokens.append(invalidByteBase + UInt32(byte))
                i += 1
            }
        }
        return tokens
    }

    /// The well-formed UTF-8 scalar (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF) that starts at
    /// `start` and its length in bytes, or nil when the bytes there are not one.
    static func decodeScalar(_ bytes: [UInt8], at start: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[start]
        let length: Int, initial: UInt32, minimum: UInt32
        switch lead {
        case 0xC2...0xDF: (length, initial, minimum) = (2, UInt32(lead & 0x1F), 0x80)
        case 0xE0...0xEF: (length, initial, minimum) = (3, UInt32(lead & 0x0F), 0x800)
        case 0xF0...0xF4: (length, initial, minimum) = (4, UInt32(lead & 0x07), 0x10000)
        default: return nil
        }
        guard start + length <= bytes.count else { return nil }
        var value = initial
        for byte in bytes[(start + 1)..<(start + length)] {
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
