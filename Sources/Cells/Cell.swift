/// A colour a terminal cell can show.
public enum CellColor: Sendable, Hashable {
    /// The terminal's own foreground or background.
    case `default`
    /// An index into the terminal's palette: 0-15 are the ANSI colours, 16-255 the xterm cube and greys.
    case palette(UInt8)
    /// A 24-bit colour; the terminal layer maps it to the nearest palette entry when it cannot show it directly.
    case rgb(UInt8, UInt8, UInt8)

    // Written out and inlinable, as `CellStyle`'s and `Cell`'s are: the screen writer compares every cell of a frame
    // with the one on screen, and the derived ones are calls across modules (31,000 a one-shot pick).
    @inlinable public static func == (a: CellColor, b: CellColor) -> Bool {
        switch (a, b) {
        case (.default, .default): true
        case (.palette(let m), .palette(let n)): m == n
        case (.rgb(let r, let g, let b), .rgb(let s, let h, let c)): r == s && g == h && b == c
        default: false
        }
    }
}

/// Text attributes of a cell.
public struct CellAttributes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bold = CellAttributes(rawValue: 1 << 0)
    public static let dim = CellAttributes(rawValue: 1 << 1)
    public static let reverse = CellAttributes(rawValue: 1 << 2)
    public static let underline = CellAttributes(rawValue: 1 << 3)
    public static let italic = CellAttributes(rawValue: 1 << 4)
}

/// The style of a run of text: colours and attributes.
public struct CellStyle: Sendable, Hashable {
    public var foreground: CellColor
    public var background: CellColor
    public var attributes: CellAttributes

    public init(foreground: CellColor = .default, background: CellColor = .default, attributes: CellAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    public static let plain = CellStyle()

    @inlinable public static func == (a: CellStyle, b: CellStyle) -> Bool {
        a.attributes == b.attributes && a.foreground == b.foreground && a.background == b.background
    }
}

/// One character cell of a terminal screen.
///
/// A wide character (CJK, most emoji) occupies its cell and the next one; the next one holds
/// `Cell.continuation` so the columns after it stay where they belong.
public struct Cell: Sendable, Hashable {
    /// What the cell shows: one grapheme cluster, already free of control characters.
    public var glyph: Character
    public var style: CellStyle

    public init(_ glyph: Character = " ", style: CellStyle = .plain) {
        self.glyph = glyph
        self.style = style
    }

    public init(_ glyph: Character, foreground: CellColor, background: CellColor = .default,
                attributes: CellAttributes = []) {
        self.glyph = glyph
        self.style = CellStyle(foreground: foreground, background: background, attributes: attributes)
    }

    public static let blank = Cell()
    /// The right half of a wide character: drawn by the cell to its left.
    public static let continuation = Cell("\u{0}")

    @inlinable public var isContinuation: Bool { glyph == "\u{0}" }

    /// The style first: it is compared as integers, and most cells that changed changed colour.
    @inlinable public static func == (a: Cell, b: Cell) -> Bool {
        a.style == b.style && a.glyph == b.glyph
    }
}
