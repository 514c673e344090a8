import Cells
import Testing

@Suite struct TerminalTextTests {
    @Test func controlCharactersAreShownInCaretNotation() {
        #expect(TerminalText.visible("a\u{1B}[31mb") == "a^[[31mb")
        #expect(TerminalText.visible("bell\u{07}cr\r") == "bell^Gcr^M")
        #expect(TerminalText.visible("del\u{7F}") == "del^?")
        #expect(TerminalText.visible("osc\u{1B}]52;c;aGk=\u{07}") == "osc^[]52;c;aGk=^G")
    }

    @Test func c1ControlsAndBidiOverridesAreShownAsCodePoints() {
        #expect(TerminalText.visible("csi\u{9B}2J") == "csi<U+009B>2J")
        #expect(TerminalText.visible("rtl\u{202E}txt") == "rtl<U+202E>txt")
    }

    @Test func tabsBecomeSpacesAndOrdinaryTextIsUntouched() {
        #expect(TerminalText.visible("a\tb") == "a b")
        #expect(TerminalText.visible("Café 宇宙 🚀") == "Café 宇宙 🚀")
    }

    @Test func displayWidthsFollowEastAsianWidthAndEmoji() {
        #expect("abc".displayWidth == 3)
        #expect("宇宙".displayWidth == 4)
        #expect("🚀".displayWidth == 2)
        #expect("e\u{301}".displayWidth == 1)
        #expect("한국".displayWidth == 4)
        #expect("☕".displayWidth == 2)
    }

    /// Printable ASCII is measured and cut by its bytes, everything else by its characters: both the same way.
    @Test func truncationCutsToColumnsWithAnEllipsis() {
        #expect(TextWrap.truncate("abcdef", width: 6) == "abcdef")
        #expect(TextWrap.truncate("abcdef", width: 9) == "abcdef")
        #expect(TextWrap.truncate("abcdef", width: 5) == "abcd…")
        #expect(TextWrap.truncate("abcdef", width: 1) == "…")
        #expect(TextWrap.truncate("abcdef", width: 0) == "")
        #expect(TextWrap.truncate("", width: 3) == "")
        // Not printable ASCII: made visible first, then cut by columns.
        #expect(TextWrap.truncate("ab\u{1B}cd", width: 4) == "ab^…")
        #expect(TextWrap.truncate("宇宙飛行", width: 5) == "宇宙…")
        #expect(TextWrap.truncate("a宇宙", width: 3) == "a…")
        #expect(TextWrap.truncate("Café au lait", width: 6) == "Café …")
        #expect("a\u{07}b".displayWidth == 4)
        #expect("~ok ".displayWidth == 4)
    }

    @Test func wrappingCountsColumnsNotCharacters() {
        let lines = TextWrap.lines("宇宙 飛行士 rocket launch", width: 8)
        #expect(lines == ["宇宙", "飛行士", "rocket", "launch"])
        #expect(lines.allSatisfy { $0.displayWidth <= 8 })
    }

    @Test func wrappingCapsTheLinesWithAnEllipsis() {
        let lines = TextWrap.lines("one two three four five six", width: 9, maxLines: 2)
        #expect(lines.count == 2)
        #expect(lines[1].hasSuffix("…"))
        #expect(lines.allSatisfy { $0.displayWidth <= 9 })
    }

    @Test func aCellBufferKeepsWideCharactersWhole() {
        var buffer = CellBuffer(width: 6, height: 1)
        buffer.put("a宇宙", x: 0, y: 0)
        #expect(buffer.line(0) == "a宇宙 ")
        // Overwriting the right half of a wide character blanks its left half.
        buffer.put("x", x: 2, y: 0)
        #expect(buffer.line(0) == "a x宙 ")
        // A wide character that does not fit before the edge becomes a space.
        buffer.put("宇", x: 5, y: 0)
        #expect(buffer.line(0) == "a x宙 ")
    }
}
