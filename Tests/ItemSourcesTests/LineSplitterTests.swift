@testable import ItemSources
import Testing

/// The line reader of piped input: lines cut across chunks, line ends, empty lines, bytes kept exactly, and the
/// ceiling on a line's length.
@Suite struct LineSplitterTests {
    /// The lines of `chunks` fed one after the other, then finished.
    static func lines(_ chunks: [[UInt8]], ceiling: Int = LineSplitter.defaultCeiling) -> [InputLine] {
        var splitter = LineSplitter(ceiling: ceiling)
        var lines = InputLines()
        for chunk in chunks { chunk.withUnsafeBytes { splitter.feed($0, into: &lines) } }
        splitter.finish(into: &lines)
        return lines.elements(0..<lines.count)
    }

    static func text(_ number: Int, _ line: String) -> InputLine { .text(number: number, bytes: Array(line.utf8)) }

    @Test func aLineCutBetweenChunksComesOutWhole() {
        let chunks = ["a/b.j", "pg\nsec", "ond\nthird"].map { Array($0.utf8) }
        #expect(Self.lines(chunks) == [Self.text(1, "a/b.jpg"), Self.text(2, "second"), Self.text(3, "third")])
    }

    @Test func emptyLinesAreSkippedButCountedInTheLineNumbers() {
        #expect(Self.lines([Array("\n\none\n\n\ntwo\n\n".utf8)]) == [Self.text(3, "one"), Self.text(6, "two")])
    }

    @Test func aCarriageReturnBeforeTheLineEndIsPartOfTheLineEndAndAnyOtherStays() {
        #expect(Self.lines([Array("win.jpg\r".utf8), Array("\nmid\rdle\n\r\n".utf8)])
            == [Self.text(1, "win.jpg"), Self.text(2, "mid\rdle")])
    }

    @Test func nulAndInvalidUTF8AndEscapesAreKeptByteForByte() {
        let line: [UInt8] = [0x61, 0x00, 0xFF, 0xC3, 0x28, 0x1B, 0x5B, 0x32, 0x4A, 0x62]
        #expect(Self.lines([line + [0x0A]]) == [.text(number: 1, bytes: line)])
    }

    @Test func theLastLineWithoutALineEndIsKeptAndNothingIsAddedForAnEmptyInput() {
        #expect(Self.lines([Array("one\ntwo".utf8)]) == [Self.text(1, "one"), Self.text(2, "two")])
        #expect(Self.lines([]) == [])
        #expect(Self.lines([[]]) == [])
    }

    @Test func aLineLongerThanTheCeilingIsLeftOutWithItsLengthAndTheRestIsKept() {
        // 25 bytes in three chunks, none with a line end, then a line that fits.
        let long = [[UInt8](repeating: 0x78, count: 10), [UInt8](repeating: 0x78, count: 10),
                    Array("xxxxx\nok\n".utf8)]
        #expect(Self.lines(long, ceiling: 8) == [.tooLong(number: 1, length: 25), Self.text(2, "ok")])
        // Exactly the ceiling fits; the input may end inside a long line.
        #expect(Self.lines([Array("12345678\n123456789".utf8)], ceiling: 8)
            == [Self.text(1, "12345678"), .tooLong(number: 2, length: 9)])
    }

    @Test func sixtyFourMegabytesWithoutALineEndAreOneLineLeftOut() {
        var splitter = LineSplitter(ceiling: 1024)
        var lines = InputLines()
        let chunk = [UInt8](repeating: 0x61, count: 1 << 16)
        // 64 MB with no line end: only its length grows.
        for _ in 0..<1024 { chunk.withUnsafeBytes { splitter.feed($0, into: &lines) } }
        #expect(lines.count == 0)
        splitter.finish(into: &lines)
        #expect(lines.elements(0..<lines.count) == [.tooLong(number: 1, length: 1 << 26)])
    }

    @Test func aLineThatAcceptsRefusesIsLeftOutCountedAndKeepsItsNumber() {
        var splitter = LineSplitter(accepts: { $0.first != UInt8(ascii: "#") })
        var lines = InputLines()
        Array("#no\nyes\n#no again\nlast".utf8).withUnsafeBytes { splitter.feed($0, into: &lines) }
        splitter.finish(into: &lines)
        #expect(lines.elements(0..<lines.count) == [Self.text(2, "yes"), Self.text(4, "last")])
        #expect(splitter.refused == 2)
    }
}
