import Cells

/// Which terminfo entry curses opens and how many colours the table draws with, decided before curses starts from
/// the request (`--color`, `NO_COLOR`), `TERM`, `COLORTERM` and the entries terminfo has.
///
/// Pure: terminfo is read through `probe`, so the choice is testable without a terminal.
public struct ColorSetup: Sendable, Equatable {
    /// The terminfo entry to open: TERM's own, or a direct-colour entry for the same terminal.
    public var entry: String
    /// The colours drawn: 0 (none), 8, 16, 256, or `ColorSetup.direct` (24-bit).
    public var depth: Int
    /// Whether the entry takes 24-bit RGB values as colour numbers.
    public var entryIsDirect: Bool
    /// Colour numbers below this the entry sends as palette indexes (SGR 30-37, 38;5;N), not as RGB values.
    public var indexedBelow: Int
    /// Why the table shows fewer colours than asked, for the status line.
    public var note: String?

    /// 24-bit colour: what ncurses reports as COLORS for a direct-colour entry.
    public static let direct = 1 << 24

    /// What terminfo says of an entry: its number of colours, and below which colour number `setaf` sends palette
    /// indexes; nil when terminfo has no such entry.
    public struct EntryColors: Sendable, Equatable {
        public var colors: Int
        public var indexedBelow: Int
        public init(colors: Int, indexedBelow: Int) {
            self.colors = colors
            self.indexedBelow = indexedBelow
        }
        var isDirect: Bool { colors >= ColorSetup.direct }
    }

    public init(entry: String, depth: Int, entryIsDirect: Bool, indexedBelow: Int, note: String? = nil) {
        self.entry = entry
        self.depth = depth
        self.entryIsDirect = entryIsDirect
        self.indexedBelow = indexedBelow
        self.note = note
    }

    /// Chooses the entry and depth for `request` on terminal type `term`.
    /// - Parameters:
    ///   - colorTerm: COLORTERM; `truecolor` or `24bit` says the terminal takes 24-bit colour whatever TERM says.
    ///   - insideTmux: whether TMUX is set: a `screen*` TERM inside tmux gets tmux's direct entry.
    ///   - probe: reads an entry's colours from terminfo.
    public static func choose(_ request: ColorRequest, term: String, colorTerm: String?, insideTmux: Bool,
                              probe: (String) -> EntryColors?) -> ColorSetup {
        let own = probe(term) ?? EntryColors(colors: 0, indexedBelow: 0)
        let stay = ColorSetup(entry: term, depth: paletteDepth(own.colors), entryIsDirect: own.isDirect,
                              indexedBelow: own.indexedBelow)
        switch request {
        case .none:
            return ColorSetup(entry: term, depth: 0, entryIsDirect: own.isDirect, indexedBelow: own.indexedBelow)
        case .palette(let asked):
            // A direct entry shows any palette colour (as its RGB value where it sends no palette index).
            var setup = stay
            setup.depth = own.isDirect ? asked : min(asked, stay.depth)
            if setup.depth < asked {
                setup.note = "--color \(asked) asked, but TERM=\(visible(term)) shows \(colorsName(setup.depth))"
            }
            return setup
        case .terminal where !own.isDirect && !(colorTerm == "truecolor" || colorTerm == "24bit"):
            return stay
        case .terminal, .direct:
            if own.isDirect { return ColorSetup(entry: term, depth: direct, entryIsDirect: true,
                                                indexedBelow: own.indexedBelow) }
            if let name = directEntry(for: term, insideTmux: insideTmux), let entry = probe(name), entry.isDirect {
                return ColorSetup(entry: name, depth: direct, entryIsDirect: true, indexedBelow: entry.indexedBelow)
            }
            var setup = stay
            setup.note = "24-bit colour asked, but terminfo has no direct-colour entry for TERM=\(visible(term)) "
                + "(install ncurses-term, or set TERM to a -direct entry): \(colorsName(setup.depth))"
            return setup
        }
    }

    /// The direct-colour entry of ncurses-term for a terminal family, by TERM's name.
    ///
    /// xterm's is xterm-direct256: it keeps the 256-colour palette for numbers below 256, so the theme's palette
    /// colours stay the user's, and has the same keys and mouse as xterm-256color. GNU screen has no direct entry;
    /// TERM=screen* inside tmux (tmux's old default) is tmux, whose entry has screen's keys.
    static func directEntry(for term: String, insideTmux: Bool) -> String? {
        let families: [(prefix: String, entry: String)] = [
            ("xterm-kitty", "kitty-direct"), ("kitty", "kitty-direct"), ("tmux", "tmux-direct"),
            ("alacritty", "alacritty-direct"), ("vte", "vte-direct"), ("gnome", "vte-direct"),
            ("konsole", "konsole-direct"), ("mintty", "mintty-direct"), ("mlterm", "mlterm-direct"),
            ("iterm", "iterm2-direct"), ("nsterm", "nsterm-direct"), ("vscode", "vscode-direct"),
            ("st-", "st-direct"), ("xterm", "xterm-direct256"),
        ]
        if term == "st" { return "st-direct" }
        if term.hasPrefix("screen") { return insideTmux ? "tmux-direct" : nil }
        return families.first { term.hasPrefix($0.prefix) }?.entry
    }

    /// The palette depth that an entry's colour count allows: 256, 16, 8 or 0.
    static func paletteDepth(_ colors: Int) -> Int {
        colors >= 256 ? 256 : colors >= 16 ? 16 : colors >= 8 ? 8 : 0
    }

    static func colorsName(_ depth: Int) -> String {
        depth == 0 ? "no colours" : depth >= direct ? "24-bit colour" : "\(depth) colours"
    }

    private static func visible(_ text: String) -> String { TerminalText.visible(text) }
}
