import Cells

/// What the terminal was found to draw, and at what size: the answer of detection at start-up.
public struct GraphicsCapabilities: Sendable, Equatable {
    /// The protocol pictures use; `.text` when no pixels can be shown.
    public var graphics: GraphicsProtocol
    /// One cell's size in pixels, from `CSI 16 t` or the tty's window size; nil when the terminal did not say.
    public var cellPixels: CellPixelSize?
    /// What the terminal said of its sixel support (XTSMGRAPHICS); nil when it did not answer.
    public var sixel: SixelGeometry?
    /// How kitty images are put in cells: through Unicode placeholders (kitty 0.28+, Ghostty), what thumbnails in
    /// the table use today, or by direct placements only (older kitty, WezTerm, Konsole). Nil for other protocols.
    public var kittyPlacement: KittyPlacement?
    /// Set when running inside tmux with passthrough allowed: image bytes must be wrapped for it.
    public var tmuxPassthrough: Bool
    /// Why pixels are not shown (or shown only in part), for the status line; nil when nothing is missing.
    public var note: String?

    public init(graphics: GraphicsProtocol, cellPixels: CellPixelSize? = nil, sixel: SixelGeometry? = nil,
                kittyPlacement: KittyPlacement? = nil, tmuxPassthrough: Bool = false, note: String? = nil) {
        self.graphics = graphics
        self.cellPixels = cellPixels
        self.sixel = sixel
        self.kittyPlacement = kittyPlacement
        self.tmuxPassthrough = tmuxPassthrough
        self.note = note
    }

    /// Text art only, with why (nil when text was asked for).
    public static func text(note: String? = nil) -> GraphicsCapabilities {
        GraphicsCapabilities(graphics: .text, note: note)
    }

    /// Whether kitty images can be shown through Unicode placeholders.
    public var kittyPlaceholders: Bool { kittyPlacement == .placeholders }

    /// Whether the table's thumbnails can be kitty images with placeholders.
    public var kittyThumbnails: Bool { graphics == .kitty && kittyPlaceholders && cellPixels != nil }

    /// Whether kitty images can be shown only by direct placements (`a=p` at a cell): the terminal has the protocol
    /// and its cell size, but no placeholders.
    public var kittyDirectPlacements: Bool { graphics == .kitty && kittyPlacement == .direct && cellPixels != nil }

    /// What was found, in a few words: `kitty with direct placements, 10x20 px cells`, `text art`.
    public var summary: String {
        guard graphics != .text else { return "text art" }
        let placement = kittyPlacement.map { " with \($0)" } ?? ""
        let cells = cellPixels.map { ", \($0) cells" } ?? ""
        return "\(graphics)\(placement)\(cells)"
    }
}

/// How a kitty terminal puts an image in cells.
public enum KittyPlacement: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Unicode placeholders: ordinary text cells that carry the image's id (kitty 0.28+, Ghostty).
    case placeholders
    /// Direct placements: an upload (`a=t`) placed at the cursor (`a=p`), moved and deleted by id (kitty before
    /// 0.28, WezTerm, Konsole).
    case direct

    public var description: String {
        switch self {
        case .placeholders: "Unicode placeholders"
        case .direct: "direct placements"
        }
    }
}

/// The size of one terminal cell in pixels.
public struct CellPixelSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// A plausible cell size, or nil: terminals that do not know their pixels answer 0, and garbage can say anything.
    public init?(checkedWidth width: Int, height: Int) {
        guard (1...512).contains(width), (1...1024).contains(height) else { return nil }
        self.init(width: width, height: height)
    }

    /// The cell size a window's text area and its cell count give (TIOCGWINSZ's pixel fields); nil when the
    /// terminal leaves the pixel fields at 0, or gives an area larger than a screen. Rounded down: xterm counts its
    /// border in the area.
    public init?(areaWidth: Int, areaHeight: Int, columns: Int, rows: Int) {
        guard columns > 0, rows > 0, areaWidth > 0, areaHeight > 0,
              areaWidth <= Self.maxScreenSide, areaHeight <= Self.maxScreenSide else { return nil }
        self.init(checkedWidth: areaWidth / columns, height: areaHeight / rows)
    }

    /// The longest side, in pixels, of any screen a terminal window can cover: 8K's 7680x4320 fits in either
    /// orientation. A cell size that makes the window larger is not what the screen has, whatever the terminal says.
    public static let maxScreenSide = 8192

    /// Whether a window of `window` cells of this size fits on a screen (see `maxScreenSide`).
    public func fitsOnAScreen(_ window: CellSize) -> Bool {
        width * window.columns <= Self.maxScreenSide && height * window.rows <= Self.maxScreenSide
    }

    public var description: String { "\(width)x\(height) px" }
}

/// What a sixel terminal says of itself through XTSMGRAPHICS.
public struct SixelGeometry: Sendable, Hashable {
    /// The number of colour registers (xterm: 1024 with -ti vt340); nil when not answered.
    public var colorRegisters: Int?
    /// The largest sixel image in pixels; nil when not answered.
    public var maxWidth: Int?
    public var maxHeight: Int?

    public init(colorRegisters: Int? = nil, maxWidth: Int? = nil, maxHeight: Int? = nil) {
        self.colorRegisters = colorRegisters
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
    }
}
