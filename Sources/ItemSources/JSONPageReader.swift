import Cells
import FoundationEssentials

/// Reads a page of JSON with a ceiling on what it may cost, keeping what fits.
///
/// JSONSerialization and JSONDecoder build the whole document: a 30 MB page of small numbers took them 5 to 29 s and
/// 800 MB here, and neither can stop early. This reader keeps at most `Limits.maxElements` elements of any list or
/// object and `Limits.maxValues` values in all, skipping (but still checking) the rest, so a page costs time in
/// proportion to its bytes and memory in proportion to the limits. Text that is not UTF-8 is kept, each bad
/// sequence replaced by U+FFFD, instead of losing the page.
///
/// Values come out as `[String: Any]`, `[Any]`, `String`, `Int` (integers that fit), `JSONNumber` (any other
/// number, with the text it was written as), `Bool` and `JSONNull`: JSONSerialization's shapes without its
/// Objective-C number and null classes, which need all of Foundation.
public struct JSONPageReader {
    /// JSON's `null` in a page read by this reader.
    public struct JSONNull: Hashable, Sendable {}

    /// A number that is no `Int` (a fraction, an exponent, an integer past Int's range): its value, and its text as
    /// the page wrote it, which is what a title shows (`123456789012345678901234567890`, not `1.2345678901234568e+29`;
    /// `1e999`, not infinity).
    public struct JSONNumber: Hashable, Sendable {
        public var text: String
        public var value: Double
    }

    /// A string, or a number or boolean written as text ("12", "-3.5", "true"); nil for lists, objects and null.
    public static func scalarText(_ value: Any?) -> String? {
        switch value {
        case let text as String: text
        case let integer as Int: String(integer)
        case let number as JSONNumber: number.text
        case let flag as Bool: flag ? "true" : "false"
        default: nil
        }
    }

    /// What one page may cost.
    public struct Limits: Sendable {
        /// Elements kept in any one list or object; a longer list keeps its first ones.
        public var maxElements: Int
        /// Values kept in the whole page.
        public var maxValues: Int
        /// Lists and objects inside one another.
        public var maxDepth: Int

        public init(maxElements: Int = 5_000, maxValues: Int = 400_000, maxDepth: Int = 200) {
            self.maxElements = maxElements
            self.maxValues = maxValues
            self.maxDepth = maxDepth
        }

        public static let `default` = Limits()
    }

    /// The page's value and what was left out or repaired, in words for the status line.
    public struct Result {
        public var value: Any
        /// The longest list that was cut: its length, and how many of its elements were kept.
        public var longestCutList: (count: Int, kept: Int)?
        /// Values skipped because the page held more than `maxValues`.
        public var skippedValues: Int
        /// Byte sequences that were not UTF-8, replaced by U+FFFD.
        public var invalidUTF8: Int

        /// One line saying what was left out or replaced, or nil when the page was read whole.
        public var note: String? {
            var parts: [String] = []
            if let cut = longestCutList {
                parts.append("a list of \(cut.count) entries was cut to its first \(cut.kept)")
            } else if skippedValues > 0 {
                parts.append("\(skippedValues) values past the limit were left out")
            }
            if invalidUTF8 > 0 {
                parts.append("\(invalidUTF8) byte sequence\(invalidUTF8 == 1 ? " that is" : "s that are") not UTF-8 "
                             + "replaced by \u{FFFD}")
            }
            return parts.isEmpty ? nil : parts.joined(separator: "; ")
        }
    }

    /// Why the bytes are not JSON: what was found where.
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        public var offset: Int
        public var message: String
        public var description: String { "\(message) at byte \(offset)" }
    }

    /// Reads `bytes` as one JSON value (any value at the top, as `.fragmentsAllowed` does).
    public static func read(_ bytes: [UInt8], limits: Limits = .default) throws(SyntaxError) -> Result {
        var reader = JSONPageReader(bytes: bytes, limits: limits)
        reader.skipWhitespace()
        guard let value = try reader.value(depth: 0, keep: true) else {
            throw SyntaxError(offset: reader.index, message: "no value")
        }
        reader.skipWhitespace()
        guard reader.index == bytes.count else {
            throw SyntaxError(offset: reader.index, message: "unexpected \(reader.describeByte()) after the value")
        }
        return Result(value: value, longestCutList: reader.longestCut, skippedValues: reader.skipped,
                      invalidUTF8: reader.invalidUTF8)
    }

    private let bytes: [UInt8]
    private let limits: Limits
    private var index = 0
    private var values = 0
    private var skipped = 0
    private var invalidUTF8 = 0
    private var longestCut: (count: Int, kept: Int)?

    private init(bytes: [UInt8], limits: Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// The value at `index`; nil when `keep` is false (the value is checked and skipped).
    private mutating func value(depth: Int, keep: Bool) throws(SyntaxError) -> Any? {
        guard index < bytes.count else { throw SyntaxError(offset: index, message: "the page ends before a value") }
        let keep = keep && values < limits.maxValues
        if keep { values += 1 } else { skipped += 1 }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1, keep: keep)
        case UInt8(ascii: "["): return try array(depth: depth + 1, keep: keep)
        case UInt8(ascii: "\""): return try string(keep: keep)
        case UInt8(ascii: "t"): try literal("true"); return keep ? true : nil
        case UInt8(ascii: "f"): try literal("false"); return keep ? false : nil
        case UInt8(ascii: "n"): try literal("null"); return keep ? JSONNull() : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number(keep: keep)
        default: throw SyntaxError(offset: index, message: "expected a value, found \(describeByte())")
        }
    }

    private mutating func array(depth: Int, keep: Bool) throws(SyntaxError) -> Any? {
        guard depth <= limits.maxDepth else {
            throw SyntaxError(offset: index, message: "lists and objects nested deeper than \(limits.maxDepth)")
        }
        index += 1
        var elements: [Any] = []
        var count = 0
        skipWhitespace()
        if try consume(UInt8(ascii: "]")) { return keep ? elements : nil }
        while true {
            skipWhitespace()
            let kept = keep && count < limits.maxElements
            let element = try value(depth: depth, keep: kept)
            if kept, let element { elements.append(element) }
            count += 1
            skipWhitespace()
            if try consume(UInt8(ascii: "]")) { break }
            try expect(UInt8(ascii: ","), "a comma or ] in a list")
        }
        if keep, count > elements.count { noteCut(count: count, kept: elements.count) }
        return keep ? elements : nil
    }

    private mutating func object(depth: Int, keep: Bool) throws(SyntaxError) -> Any? {
        guard depth <= limits.maxDepth else {
            throw SyntaxError(offset: index, message: "lists and objects nested deeper than \(limits.maxDepth)")
        }
        index += 1
        var members: [String: Any] = [:]
        var count = 0
        skipWhitespace()
        if try consume(UInt8(ascii: "}")) { return keep ? members : nil }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw SyntaxError(offset: index, message: "expected a key in quotes, found \(describeByte())")
            }
            let kept = keep && count < limits.maxElements
            let key = try string(keep: kept) as? String
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "a colon after a key")
            skipWhitespace()
            let member = try value(depth: depth, keep: kept)
            if kept, let key, let member { members[key] = member }
            count += 1
            skipWhitespace()
            if try consume(UInt8(ascii: "}")) { break }
            try expect(UInt8(ascii: ","), "a comma or } in an object")
        }
        if keep, count > members.count, count > limits.maxElements { noteCut(count: count, kept: limits.maxElements) }
        return keep ? members : nil
    }

    private mutating func noteCut(count: Int, kept: Int) {
        if count > (longestCut?.count ?? 0) { longestCut = (count, kept) }
    }

    private mutating func string(keep: Bool) throws(SyntaxError) -> Any? {
        let start = index
        index += 1
        var text: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else { throw SyntaxError(offset: start, message: "text that never ends") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw SyntaxError(offset: index, message: "a control character inside text") }
            if byte == UInt8(ascii: "\\") {
                if keep { text.append(contentsOf: bytes[runStart..<index]) }
                try escape(into: &text, keep: keep)
                runStart = index
            } else if byte < 0x80 {
                index += 1
            } else {
                let length = UTF8Validation.sequenceLength(bytes, at: index)
                if length == 0 {
                    if keep {
                        text.append(contentsOf: bytes[runStart..<index])
                        text.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    }
                    invalidUTF8 += 1
                    index += 1
                    runStart = index
                } else {
                    index += length
                }
            }
        }
        if keep { text.append(contentsOf: bytes[runStart..<index]) }
        index += 1
        return keep ? String(decoding: text, as: UTF8.self) : nil
    }

    private mutating func escape(into text: inout [UInt8], keep: Bool) throws(SyntaxError) {
        index += 1
        guard index < bytes.count else { throw SyntaxError(offset: index, message: "text that never ends") }
        let simple: UInt8?
        switch bytes[index] {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default: throw SyntaxError(offset: index, message: "an unknown escape \\\(describeByte())")
        }
        if let simple {
            if keep { text.append(simple) }
            index += 1
            return
        }
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
           bytes[index + 1] == UInt8(ascii: "u") {
            let saved = index
            index += 1
            let low = try hex4()
            if (0xDC00...0xDFFF).contains(low) {
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else {
                index = saved
            }
        }
        if keep {
            // A lone surrogate is not a character: it becomes U+FFFD, as bad UTF-8 does.
            let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
            text.append(contentsOf: Array(String(character).utf8))
        }
    }

    /// Four hex digits after `\u`; leaves `index` after them.
    private mutating func hex4() throws(SyntaxError) -> UInt32 {
        index += 1
        guard index + 4 <= bytes.count else { throw SyntaxError(offset: index, message: "a \\u escape cut short") }
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw SyntaxError(offset: index, message: "a \\u escape with a digit that is not hex")
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    private mutating func number(keep: Bool) throws(SyntaxError) -> Any? {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard try digits() > 0 else { throw SyntaxError(offset: start, message: "a number without digits") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard try digits() > 0 else { throw SyntaxError(offset: index, message: "a number with no digits after the point") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard try digits() > 0 else { throw SyntaxError(offset: index, message: "a number with an empty exponent") }
        }
        guard keep else { return nil }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int(text) { return integer }
        return JSONNumber(text: text, value: Double(text) ?? .nan)
    }

    private mutating func digits() throws(SyntaxError) -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) throws(SyntaxError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count, bytes[index..<(index + expected.count)].elementsEqual(expected) else {
            throw SyntaxError(offset: index, message: "expected \(word), found \(describeByte())")
        }
        index += expected.count
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func consume(_ byte: UInt8) throws(SyntaxError) -> Bool {
        guard index < bytes.count else { throw SyntaxError(offset: index, message: "the page ends inside a list or object") }
        guard bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(SyntaxError) {
        guard try consume(byte) else { throw SyntaxError(offset: index, message: "expected \(what), found \(describeByte())") }
    }

    private func describeByte() -> String {
        guard index < bytes.count else { return "the end of the page" }
        let byte = bytes[index]
        return (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + String(byte, radix: 16)
    }
}
