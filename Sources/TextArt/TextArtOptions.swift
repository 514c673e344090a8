import Pixels

/// How a cell shows its part of the picture: which glyphs are used and how many picture pixels a cell stands for.
public enum RenderMode: String, CaseIterable, Sendable {
    /// A tone ramp of ASCII characters: one tone per cell.
    case ascii
    /// ASCII characters chosen by matching each cell's pattern against the glyphs' shapes, so edges follow the
    /// picture.
    case shapes
    /// Half blocks (▀ ▄ █): two pixels a cell, one above the other, each with its own colour.
    case blocks
    /// Quadrant blocks (▘ ▝ ▀ ▖ ▌ ▞ ▛ ...): 2x2 pixels a cell in two colours.
    case quadrants
    /// Sextant blocks (U+1FB00...): 2x3 pixels a cell in two colours. Needs a terminal or font that draws them.
    case sextants
    /// Braille patterns: 2x4 dots a cell.
    case braille
}

/// How many colours the terminal can show.
public enum ColorDepth: String, CaseIterable, Sendable {
    /// No colour: the terminal's own foreground on its own background.
    case none
    /// The 16 ANSI colours (SGR 30-37, 90-97).
    case ansi16 = "16"
    /// The xterm 256-colour palette; only its fixed part (16-255) is used, since themes change 0-15.
    case palette256 = "256"
    /// 24-bit colour.
    case truecolor
}

/// How colours the palette lacks are approximated.
public enum Dither: String, CaseIterable, Sendable {
    /// Each colour becomes its nearest palette entry.
    case none
    /// A Bayer matrix: a regular pattern, stable from frame to frame.
    case ordered
    /// Floyd–Steinberg error diffusion.
    case fs
}

/// Everything that decides how a picture becomes text, apart from the grid size.
public struct TextArtOptions: Sendable, Hashable {
    public var mode: RenderMode
    public var color: ColorDepth
    /// Only used for palette depths (none, 16, 256): truecolor has no palette to dither to.
    public var dither: Dither
    /// A cell's width divided by its height (0.5: a cell is half as wide as tall). Only `fit` uses it.
    public var cellAspect: Double
    /// The terminal's background: transparent pixels are composited on it.
    public var background: RGBA

    public init(mode: RenderMode = .sextants, color: ColorDepth = .truecolor, dither: Dither = .none,
                cellAspect: Double = 0.5, background: RGBA = RGBA(r: 0, g: 0, b: 0)) {
        self.mode = mode
        self.color = color
        self.dither = dither
        self.cellAspect = cellAspect
        self.background = background
    }

    /// The options that score best on the project's quality measure.
    public static let `default` = TextArtOptions()
}
