import Cells

/// Hands out curses colour pairs for the styles drawn, and forgets them all when the table is full.
///
/// Pair numbers are handed out here, 1 up to COLOR_PAIRS - 1 (65,535 in the 256-colour and direct entries, 63 in
/// xterm's 8-colour one), not by `alloc_pair`: with a direct entry ncurses sizes its table for 2 x 2^24 colours,
/// so `alloc_pair` hands out numbers past COLOR_PAIRS, outside the documented range, keeping every pair ever
/// drawn (after `reset_color_pairs` its cells drew in the default colours); and where it does recycle the
/// least recently used pair, it would redefine a pair that cells written earlier in the same frame use. Once
/// the numbers run out, `ScreenWriter` starts them again (`reset`) and writes the whole frame anew. A frame needs at
/// most one pair per cell, a 200x60 screen at most 12,000, so it always fits: a photo filling 150x50 cells of a
/// 200x60 screen used 8,380 in 24-bit colour and 1,388 in 256, so the numbers start again after about eight screens
/// of new photos, with one frame that repaints the whole screen (60-110 ms instead of 30-90, measured).
struct ColorPairs {
    /// The colours drawn: 0 (none: curses' colours never started, every cell is pair 0), 8, 16, 256 or
    /// `ColorSetup.direct`.
    let colorCount: Int
    /// Whether the terminfo entry takes RGB values as colour numbers, and below which number it sends palette
    /// indexes (`ColorSetup`).
    let entryIsDirect: Bool
    let indexedBelow: Int
    /// The number of pairs the entry has (COLOR_PAIRS): numbers run from 1 to one below it.
    let limit: Int32

    /// The pair number of each fg/bg combination drawn since the table was last reset.
    private var pairs: [CellStyle.ColorKey: Int32] = [:]
    /// The pair found last and its colours: the next cell most often has the same (a hash lookup costs about 500
    /// instructions, and a frame's changed cells asked 2,000 times for a handful of pairs).
    private var last: (key: CellStyle.ColorKey, pair: Int32)?
    /// The next pair number to define.
    private var next: Int32 = 1
    /// Set while a frame is drawn anew after a reset: should that one frame have more colour combinations than the
    /// table holds (a terminal of more than 65,535 cells; 63 pairs in an 8-colour one), its last cells take the
    /// terminal's default colours rather than a recycled pair's.
    var overflowing = false

    init(colorCount: Int, entryIsDirect: Bool, indexedBelow: Int, limit: Int32) {
        self.colorCount = colorCount
        self.entryIsDirect = entryIsDirect
        self.indexedBelow = indexedBelow
        self.limit = limit
    }

    /// How many pairs are defined now.
    var count: Int { pairs.count }

    /// The pair of `style`, defining a new one with `define` (pair, foreground, background; false when curses
    /// refused); nil when the table is full.
    mutating func pair(for style: CellStyle, define: (Int32, Int32, Int32) -> Bool) -> Int32? {
        guard colorCount > 0 else { return 0 }
        let key = style.colorKey
        if key.foreground == .default && key.background == .default { return 0 }
        if let last, last.key == key { return last.pair }
        if let pair = pairs[key] {
            last = (key, pair)
            return pair
        }
        guard next < limit, define(next, colorNumber(key.foreground), colorNumber(key.background))
        else { return overflowing ? 0 : nil }
        let pair = next
        pairs[key] = pair
        last = (key, pair)
        next += 1
        return pair
    }

    /// Forgets every pair: numbering starts again at 1.
    mutating func reset() {
        pairs.removeAll(keepingCapacity: true)
        last = nil
        next = 1
    }

    /// A cell colour as a curses colour number: reduced to the drawing depth, then as the entry takes it (an RGB
    /// value in a direct-colour entry, except the palette indexes it sends as such).
    func colorNumber(_ color: CellColor) -> Int32 {
        let index: UInt8
        switch color {
        case .default:
            return -1
        case .palette(let n):
            index = Int(n) < colorCount ? n : XtermPalette.reduce(paletteIndex: n, to: colorCount)
        case .rgb(let r, let g, let b):
            if colorCount >= ColorSetup.direct {
                return XtermPalette.directColorNumber(r: r, g: g, b: b, indexedBelow: indexedBelow)
            }
            index = XtermPalette.nearest(r: r, g: g, b: b, colors: colorCount)
        }
        guard entryIsDirect, Int(index) >= indexedBelow else { return Int32(index) }
        let c = XtermPalette.rgb(index)
        return XtermPalette.directColorNumber(r: c.r, g: c.g, b: c.b, indexedBelow: indexedBelow)
    }
}

extension CellStyle {
    /// The colours of a style, without its attributes: what a curses colour pair is made of.
    struct ColorKey: Hashable {
        var foreground: CellColor
        var background: CellColor
    }

    var colorKey: ColorKey { ColorKey(foreground: foreground, background: background) }
}
