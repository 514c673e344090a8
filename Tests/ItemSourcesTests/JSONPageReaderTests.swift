import Foundation
@testable import ItemSources
import TestSupport
import Testing

/// The bounded JSON reader gives what JSONSerialization gives for ordinary pages, and keeps what fits of the rest.
@Suite struct JSONPageReaderTests {
    /// Our reader's value and JSONSerialization's compared as JSON: numbers by value, objects by key.
    func same(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case let (a as [String: Any], b as [String: Any]):
            a.count == b.count && a.allSatisfy { key, value in b[key].map { same(value, $0) } ?? false }
        case let (a as [Any], b as [Any]): a.count == b.count && zip(a, b).allSatisfy(same)
        case let (a as String, b as String): a == b
        case let (a as Bool, b as NSNumber): a == b.boolValue
        case let (a as Int, b as NSNumber): Double(a) == b.doubleValue
        case let (a as JSONPageReader.JSONNumber, b as NSNumber): a.value == b.doubleValue
        case (is JSONPageReader.JSONNull, is NSNull): true
        default: false
        }
    }

    @Test func theDemoDataReadsAsJSONSerializationReadsIt() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: demoData.path).filter { $0.hasSuffix(".json") }
        #expect(files.count >= 2)
        for file in files {
            let body = try Data(contentsOf: demoData.appendingPathComponent(file))
            let expected = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
            let read = try JSONPageReader.read([UInt8](body), limits: .init(maxElements: 10_000, maxValues: 1 << 20))
            #expect(same(read.value, expected), "\(file)")
            #expect(read.note == nil, "\(file)")
        }
    }

    @Test func escapesNumbersAndLiteralsAreRead() throws {
        let text = #"{"a": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\ud800", "n": [-0, 12, -3.5e2, 1E+2, 9223372036854775808], "t": true, "f": false, "z": null}"#
        let read = try JSONPageReader.read(Array(text.utf8))
        let object = try #require(read.value as? [String: Any])
        #expect(object["a"] as? String == "x\"\\/\u{8}\u{C}\n\r\té😀\u{FFFD}")
        let numbers = try #require(object["n"] as? [Any])
        #expect(numbers[0] as? Int == 0 && numbers[1] as? Int == 12)
        #expect((numbers[2] as? JSONPageReader.JSONNumber)?.value == -350
                && (numbers[3] as? JSONPageReader.JSONNumber)?.value == 100)
        #expect((numbers[4] as? JSONPageReader.JSONNumber)?.value == 9223372036854775808,
                "an integer past Int's range is read as a number with its text")
        #expect(object["t"] as? Bool == true && object["f"] as? Bool == false)
        #expect(object["z"] is JSONPageReader.JSONNull)
        #expect(JSONPageReader.scalarText(numbers[1]) == "12" && JSONPageReader.scalarText(numbers[2]) == "-3.5e2",
                "as written")
        #expect(JSONPageReader.scalarText(object["t"]) == "true" && JSONPageReader.scalarText(object["z"]) == nil)
    }

    /// A number shows as the page wrote it: 30 digits, an exponent past Double's range, a fraction's zeros.
    @Test(arguments: ["123456789012345678901234567890", "1e999", "-1E-999", "0.10", "9223372036854775808", "2.50e+3"])
    func aNumberTitleShowsAsWritten(_ number: String) throws {
        let read = try JSONPageReader.read(Array("[\(number)]".utf8))
        let value = try #require((read.value as? [Any])?.first)
        #expect(JSONPageReader.scalarText(value) == number)
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "[01x]", "\"abc", "[1] 2", "tru", "{\"a\":1,}", "[\"\u{1}\"]", "-", "1.", "1e"])
    func malformedJSONIsAnErrorWithAPlace(_ text: String) {
        #expect(throws: JSONPageReader.SyntaxError.self) { try JSONPageReader.read(Array(text.utf8)) }
    }

    @Test func aLongListKeepsItsFirstElementsAndSaysSo() throws {
        let body = "{\"items\": [" + (0..<50_000).map { "{\"id\": \($0)}" }.joined(separator: ",") + "], \"next\": \"/p2\"}"
        let read = try JSONPageReader.read(Array(body.utf8), limits: .init(maxElements: 1_000, maxValues: 100_000))
        let object = try #require(read.value as? [String: Any])
        let items = try #require(object["items"] as? [[String: Any]])
        #expect(items.count == 1_000)
        #expect((items.last?["id"] as? NSNumber)?.intValue == 999)
        #expect(object["next"] as? String == "/p2", "members after the cut list are kept")
        #expect(read.note == "a list of 50000 entries was cut to its first 1000")
    }

    @Test func theValueBudgetBoundsAPageOfManySmallLists() throws {
        let body = "[" + Array(repeating: "[1,2,3,4,5,6,7,8,9]", count: 2_000).joined(separator: ",") + "]"
        let read = try JSONPageReader.read(Array(body.utf8), limits: .init(maxElements: 10_000, maxValues: 1_000))
        let lists = try #require(read.value as? [Any])
        #expect(lists.count <= 1_000)
        #expect(read.skippedValues > 0)
        #expect(read.note?.hasPrefix("a list of 2000 entries was cut to its first") == true, "\(read.note ?? "")")
    }

    @Test func nestingDeeperThanTheLimitIsRefused() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONPageReader.SyntaxError.self) { try JSONPageReader.read(Array(deep.utf8)) }
        let fine = String(repeating: "[", count: 150) + String(repeating: "]", count: 150)
        _ = try JSONPageReader.read(Array(fine.utf8))
    }

    @Test func invalidUTF8IsReplacedAndCounted() throws {
        let body: [UInt8] = Array(#"["a"#.utf8) + [0xC3] + Array(#"", "b"#.utf8) + [0xFF, 0xFE] + Array(#"", "c"#.utf8)
            + [0xED, 0xA0, 0x80] + Array(#""]"#.utf8)
        let read = try JSONPageReader.read(body)
        let strings = try #require(read.value as? [String])
        #expect(strings == ["a\u{FFFD}", "b\u{FFFD}\u{FFFD}", "c\u{FFFD}\u{FFFD}\u{FFFD}"])
        #expect(read.invalidUTF8 == 6)
    }
}
