/// Where a number's digits go in a picture: 3x5 glyphs (`Placeholder.digitGlyphs`) scaled so the text takes at most
/// `widthShare` of the width and `heightShare` of the height, centred. The placeholders and the numbered photos both
/// draw with it.
struct DigitLayout {
    /// One lit unit of a glyph: a square of pixels, clipped to the picture.
    struct Square {
        var columns: Range<Int>
        var rows: Range<Int>
    }

    /// The lit squares, left to right.
    private(set) var squares: [Square] = []
    /// The pixels the text spans, one unit of margin around it, clipped to the picture; nil without digits.
    private(set) var bounds: Square?

    init(text: String, width: Int, height: Int, widthShare: Double = 0.8, heightShare: Double = 0.5) {
        let glyphs = text.compactMap { Placeholder.digitGlyphs[$0] }
        guard !glyphs.isEmpty, width > 0, height > 0 else { return }
        // Each glyph is 3x5 units with one unit between glyphs.
        let unitsWide = glyphs.count * 4 - 1
        let scale = max(1, min(Int(Double(width) * widthShare) / unitsWide, Int(Double(height) * heightShare) / 5))
        let left = (width - unitsWide * scale) / 2, top = (height - 5 * scale) / 2
        func clipped(x: Int, y: Int, columns: Int, rows: Int) -> Square {
            Square(columns: max(0, x)..<max(max(0, x), min(width, x + columns)),
                   rows: max(0, y)..<max(max(0, y), min(height, y + rows)))
        }
        for (g, glyph) in glyphs.enumerated() {
            for (row, bits) in glyph.enumerated() {
                for column in 0..<3 where bits & (0b100 >> column) != 0 {
                    squares.append(clipped(x: left + (g * 4 + column) * scale, y: top + row * scale,
                                           columns: scale, rows: scale))
                }
            }
        }
        bounds = clipped(x: left - scale, y: top - scale, columns: (unitsWide + 2) * scale, rows: 7 * scale)
    }
}
