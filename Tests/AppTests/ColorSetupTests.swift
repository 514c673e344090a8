import Cells
import Terminal
import Testing

/// How the terminfo entry and the drawing depth are chosen from --color, NO_COLOR, TERM and COLORTERM: with the
/// real terminfo database (ncurses-term installed), and with a made-up one for a terminal without direct entries.
@MainActor
@Suite struct ColorSetupTests {
    func choose(_ request: ColorRequest, term: String, colorTerm: String? = nil, insideTmux: Bool = false)
        -> ColorSetup {
        ColorSetup.choose(request, term: term, colorTerm: colorTerm, insideTmux: insideTmux, probe: Terminal.probe)
    }

    @Test func terminfoSaysWhichColourNumbersAreIndexes() throws {
        let xterm256 = try #require(Terminal.probe("xterm-256color"))
        #expect(xterm256 == .init(colors: 256, indexedBelow: 256))
        #expect(try #require(Terminal.probe("xterm-direct256")) == .init(colors: 1 << 24, indexedBelow: 256))
        #expect(try #require(Terminal.probe("xterm-direct")) == .init(colors: 1 << 24, indexedBelow: 8))
        #expect(try #require(Terminal.probe("xterm-direct16")) == .init(colors: 1 << 24, indexedBelow: 16))
        #expect(try #require(Terminal.probe("tmux-direct")).indexedBelow == 8)
        #expect(Terminal.probe("no-such-terminal-xyz") == nil)
    }

    @Test func colortermTruecolorOpensTheTerminalsDirectEntry() {
        #expect(choose(.terminal, term: "xterm-256color", colorTerm: "truecolor")
                == ColorSetup(entry: "xterm-direct256", depth: 1 << 24, entryIsDirect: true, indexedBelow: 256))
        #expect(choose(.terminal, term: "tmux-256color", colorTerm: "24bit").entry == "tmux-direct")
        #expect(choose(.terminal, term: "screen-256color", colorTerm: "truecolor", insideTmux: true).entry
                == "tmux-direct")
        #expect(choose(.direct, term: "xterm").entry == "xterm-direct256", "--color truecolor")
    }

    @Test func aDirectTermIsUsedAsItIs() {
        #expect(choose(.terminal, term: "xterm-direct")
                == ColorSetup(entry: "xterm-direct", depth: 1 << 24, entryIsDirect: true, indexedBelow: 8))
    }

    @Test func withoutColortermThePaletteOfTheEntry() {
        #expect(choose(.terminal, term: "xterm-256color")
                == ColorSetup(entry: "xterm-256color", depth: 256, entryIsDirect: false, indexedBelow: 256))
        #expect(choose(.terminal, term: "xterm").depth == 8)
        #expect(choose(.terminal, term: "xterm-256color", colorTerm: "yes").depth == 256)
    }

    @Test func colorOptionSetsTheDepth() {
        let asked256 = choose(.palette(256), term: "xterm-256color", colorTerm: "truecolor")
        #expect(asked256.entry == "xterm-256color" && asked256.depth == 256 && asked256.note == nil)
        #expect(choose(.palette(16), term: "xterm-256color").depth == 16)
        #expect(choose(.none, term: "xterm-direct").depth == 0)
        // On a direct entry a palette depth is drawn with the palette's RGB values.
        #expect(choose(.palette(256), term: "xterm-direct").depth == 256)
    }

    @Test func moreThanTheTerminalShowsIsSaidInTheStatusLine() throws {
        let setup = choose(.palette(256), term: "xterm")
        #expect(setup.depth == 8)
        #expect(try #require(setup.note).hasPrefix("8 colours: --color 256 asked, but TERM=xterm has no more"))
    }

    @Test func withoutADirectEntryTheTableStaysAt256AndSaysWhy() throws {
        let outside = choose(.terminal, term: "screen-256color", colorTerm: "truecolor", insideTmux: false)
        #expect(outside.entry == "screen-256color" && outside.depth == 256)
        #expect(try #require(outside.note).hasPrefix("256 colours, not 24-bit: terminfo has no direct-colour entry"))
        // A terminfo database without ncurses-term's entries.
        let bare = ColorSetup.choose(.direct, term: "xterm-256color", colorTerm: nil, insideTmux: false) { name in
            name == "xterm-256color" ? .init(colors: 256, indexedBelow: 256) : nil
        }
        #expect(bare.entry == "xterm-256color" && bare.depth == 256)
        #expect(try #require(bare.note).contains("install ncurses-term"))
    }
}

/// A TERM terminfo lacks runs on an entry that draws the same where there is one, and only there.
@Suite struct TerminfoFallbackTests {
    @Test(arguments: [("xterm-kitty", "xterm-256color"), ("xterm-ghostty", "xterm-256color"),
                      ("alacritty", "xterm-256color"), ("foot-extra", "xterm-256color"), ("wezterm", "xterm-256color"),
                      ("tmux-256color", "screen-256color"), ("tmux", "screen-256color")])
    func anXtermLikeOrTmuxTermHasAStandIn(term: String, entry: String) {
        #expect(TerminfoFallback.entry(for: term) == entry)
    }

    @Test(arguments: ["no-such-terminal", "dumb", "", "xterm", "kittyish", "vt100", "screen-bce"])
    func anyOtherTermHasNone(term: String) {
        #expect(TerminfoFallback.entry(for: term) == nil)
    }

    @Test func theNoteShowsTermsControlCharacters() {
        let note = TerminfoFallback.note(term: "xterm-\u{1B}[31m", entry: "xterm-256color")
        #expect(note.hasPrefix("TERM=xterm-^[[31m is not in the terminfo database: drawing as xterm-256color"), "\(note)")
    }
}
