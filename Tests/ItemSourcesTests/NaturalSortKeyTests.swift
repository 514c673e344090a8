@testable import ItemSources
import Testing

/// The folder's order, rule by rule (see `NaturalSortKey`).
@Suite struct NaturalSortKeyTests {
    private func sorted(_ names: [[UInt8]]) -> [[UInt8]] {
        names.map(NaturalSortKey.init).sorted().map(\.bytes)
    }

    private func sorted(_ names: [String]) -> [String] {
        sorted(names.map { Array($0.utf8) }).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func digitRunsCompareByValue() {
        #expect(sorted(["file10.png", "file2.png", "file1.png", "file100.png", "file20.png"])
            == ["file1.png", "file2.png", "file10.png", "file20.png", "file100.png"])
        #expect(sorted(["a10b2", "a10b10", "a9b99"]) == ["a9b99", "a10b2", "a10b10"])
    }

    @Test func leadingZerosCountOnlyToBreakTies() {
        // 007 and 7 are the same number: the bytes decide ("0" < "7"), and 8 still comes after both.
        #expect(sorted(["img8.png", "img7.png", "img007.png", "img07.png"])
            == ["img007.png", "img07.png", "img7.png", "img8.png"])
        #expect(sorted(["x000", "x0", "x00"]) == ["x0", "x00", "x000"])
    }

    @Test func caseIsIgnoredThenBreaksTies() {
        #expect(sorted(["banana.png", "Apple.png", "apple.png", "Cherry.png"])
            == ["Apple.png", "apple.png", "banana.png", "Cherry.png"])
        // Beyond ASCII, through Unicode's lowercase mapping: É sorts with é, both after e.
        #expect(sorted(["\u{E9}t\u{E9}", "\u{C9}t\u{E9}", "ete", "zoo"]) == ["ete", "zoo", "\u{C9}t\u{E9}", "\u{E9}t\u{E9}"])
    }

    @Test func numbersSortAtZerosPlaceAmongCharacters() {
        // "-" and "." come before "0", letters after; a number is never compared digit by digit with a letter.
        #expect(sorted(["a1", "a-", "ab", "a.", "a99"]) == ["a-", "a.", "a1", "a99", "ab"])
        #expect(sorted(["10", "5x", "9"]) == ["5x", "9", "10"])
        // The order is consistent over a mix of numbers and characters: every earlier name is less than every later.
        let mixed = sorted(["a", "9", "10", "a9", "a10", "-1", "_", "Z", "a-", "a_b", "0", "00", "a.9", "a9.5", "b"])
            .map { NaturalSortKey(Array($0.utf8)) }
        for i in mixed.indices {
            for j in mixed.indices where i < j { #expect(mixed[i] < mixed[j] && !(mixed[j] < mixed[i])) }
        }
    }

    @Test func bytesThatAreNotUTF8SortAfterEveryCharacterAndKeepTheirBytes() {
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".png".utf8)
        let utf8: [UInt8] = Array("caf\u{E9}.png".utf8)
        let truncated: [UInt8] = Array("caf".utf8) + [0xC3]  // a lead byte with nothing after it
        let overlong: [UInt8] = Array("caf".utf8) + [0xC0, 0xAF]  // "/" spelled in two bytes: not UTF-8
        let plain = Array("cafz.png".utf8)
        #expect(sorted([latin1, truncated, utf8, plain, overlong]) == [plain, utf8, overlong, truncated, latin1])
        #expect(NaturalSortKey.decodeScalar(overlong, at: 3) == nil)
        #expect(NaturalSortKey.decodeScalar([0xED, 0xA0, 0x80], at: 0) == nil, "a surrogate is not a scalar")
        #expect(NaturalSortKey.decodeScalar(utf8, at: 3)?.1 == 2)
    }

    @Test func namesEqualWhenFoldedAreStillOrderedAndDistinct() {
        let names = ["File1", "file1", "FILE1", "file01", "File01"]
        let keys = names.map { NaturalSortKey(Array($0.utf8)) }
        let once = sorted(names)
        // Equal by rules 1 and 2 (the word "file", the number 1); the bytes decide, uppercase first.
        #expect(once == ["FILE1", "File01", "File1", "file01", "file1"])
        // Total: exactly one of a < b, b < a, a == b, and == only for the same bytes; stable across input orders.
        for a in keys {
            for b in keys {
                let relations = [a < b, b < a, a == b].filter { $0 }.count
                #expect(relations == 1, "\(a.bytes) \(b.bytes)")
                #expect((a == b) == (a.bytes == b.bytes))
            }
        }
        #expect(sorted(names.reversed()) == once)
    }

    @Test func veryLongDigitRunsCompareByValueWithoutOverflow() {
        let big = "n" + String(repeating: "9", count: 60)
        let bigger = "n1" + String(repeating: "0", count: 60)
        let paddedSmall = "n" + String(repeating: "0", count: 80) + "5"
        #expect(sorted([bigger, big, paddedSmall, "n6"]) == [paddedSmall, "n6", big, bigger])
    }
}
