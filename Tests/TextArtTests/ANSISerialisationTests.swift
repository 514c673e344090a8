import Cells
import Testing

@Suite struct ANSISerialisationTests {
    let esc = "\u{1B}["

    func line(_ cells: [Cell]) -> CellBuffer {
        var buffer = CellBuffer(width: cells.count, height: 1)
        for (x, cell) in cells.enumerated() { buffer[x, 0] = cell }
        return buffer
    }

    @Test func plainTextHasNoEscapesAndEndsEveryLine() {
        var buffer = CellBuffer(width: 3, height: 2)
        buffer.put("ab", x: 0, y: 0, style: CellStyle(foreground: .palette(1)))
        buffer.put("界", x: 0, y: 1)
        #expect(buffer.plainText == "ab \n界 \n")
    }

    @Test func plainStyleNeedsNoEscapes() {
        #expect(line([Cell("a"), Cell("b")]).ansiText == "ab\n")
    }

    @Test func sixteenColoursUseTheShortCodes() {
        let text = line([
            Cell("a", foreground: .palette(1)), Cell("b", foreground: .palette(9)),
            Cell("c", foreground: .default, background: .palette(4)),
            Cell("d", foreground: .default, background: .palette(12)),
        ]).ansiText
        #expect(text == "\(esc)31ma\(esc)91mb\(esc)39;44mc\(esc)104md\(esc)0m\n")
    }

    @Test func paletteAndTruecolourUseExtendedCodes() {
        let text = line([
            Cell("▀", foreground: .palette(196), background: .palette(16)),
            Cell("▀", foreground: .rgb(1, 22, 255), background: .rgb(0, 0, 0)),
        ]).ansiText
        #expect(text == "\(esc)38;5;196;48;5;16m▀\(esc)38;2;1;22;255;48;2;0;0;0m▀\(esc)0m\n")
    }

    @Test func onlyChangesAreWritten() {
        let red = Cell("x", foreground: .palette(1))
        let text = line([red, red, Cell("y", foreground: .palette(1), background: .palette(2))]).ansiText
        #expect(text == "\(esc)31mxx\(esc)42my\(esc)0m\n")
    }

    @Test func aSpaceKeepsTheCurrentForeground() {
        let text = line([
            Cell("▀", foreground: .rgb(1, 2, 3), background: .rgb(4, 5, 6)),
            Cell(" ", foreground: .rgb(9, 9, 9), background: .rgb(4, 5, 6)),
            Cell("▀", foreground: .rgb(1, 2, 3), background: .rgb(4, 5, 6)),
        ]).ansiText
        #expect(text == "\(esc)38;2;1;2;3;48;2;4;5;6m▀ ▀\(esc)0m\n")
    }

    @Test func everyStyledLineEndsWithAReset() {
        var buffer = CellBuffer(width: 1, height: 2, fill: Cell("a", foreground: .palette(2)))
        buffer[0, 1] = Cell("b")
        #expect(buffer.ansiText == "\(esc)32ma\(esc)0m\nb\n")
    }

    @Test func droppedAttributesResetFirst() {
        let text = line([
            Cell("a", foreground: .palette(1), attributes: [.bold, .underline]),
            Cell("b", foreground: .palette(1), attributes: [.bold]),
            Cell("c", foreground: .default),
        ]).ansiText
        #expect(text == "\(esc)1;4;31ma\(esc)0;1;31mb\(esc)0mc\n")
    }

    @Test func continuationCellsAreSkipped() {
        var buffer = CellBuffer(width: 3, height: 1)
        buffer.put("界x", x: 0, y: 0, style: CellStyle(foreground: .palette(3)))
        #expect(buffer.ansiText == "\(esc)33m界x\(esc)0m\n")
    }

    /// The longest transitions and glyphs there are, back to back: the bytes are counted before they are written, so
    /// a count too small would stop the program.
    @Test func theLongestTransitionsAndGlyphsAreWrittenWhole() {
        let family: Character = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"  // 25 bytes
        let white = CellColor.rgb(255, 255, 255)
        let text = line([
            Cell(family, foreground: .rgb(200, 201, 202), background: .rgb(100, 101, 102), attributes: [.bold]),
            Cell(family, foreground: white, background: white, attributes: [.dim, .italic, .underline, .reverse]),
        ]).ansiText
        let first = "\(esc)1;38;2;200;201;202;48;2;100;101;102m\(family)"
        let second = "\(esc)0;2;3;4;7;38;2;255;255;255;48;2;255;255;255m\(family)"
        #expect(text == first + second + "\(esc)0m\n")
        #expect(line([Cell(family)]).plainText == "\(family)\n")
    }
}
