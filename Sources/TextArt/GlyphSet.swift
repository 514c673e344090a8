/// Printable ASCII glyphs with how much of a cell each covers, overall and at a coarse grid, for tone and shape
/// matching.
///
/// The two sets, `ramp` and `all`, are literals in the generated GlyphSet+Tables.swift (nothing is measured at first
/// use); the extension below measures them from the glyph coverage, for `GeneratedTablesTests`, which writes and
/// checks that file.
struct GlyphSet: Sendable, Equatable {
    /// The resolution shapes are matched at: pixels across and down a cell.
    static let columns = 2
    static let rows = 4
    static var pixelCount: Int { columns * rows }

    let glyphs: [Character]
    /// The fraction of the cell each glyph covers: its brightness in the terminal's foreground.
    let coverage: [Float]
    /// Lightness (L*, 0...1) of each glyph's coarse pixels, `pixelCount` a glyph, white on black.
    let pattern: [Float]
    /// Lightness of each glyph seen as a whole.
    let lightness: [Float]

    /// The size of the generated coverage table's cells.
    static let fineColumns = 8
    static let fineRows = 16

    /// The 8x16 coverage (0...255, row-major) of a printable ASCII glyph, from the generated table; nil for any
    /// other character.
    static func fineCoverage(of glyph: Character) -> ArraySlice<UInt8>? {
        guard let ascii = glyph.asciiValue, ascii >= 32, ascii < 127 else { return nil }
        let size = fineColumns * fineRows, start = (Int(ascii) - 32) * size
        return glyphCoverage[start..<(start + size)]
    }

    /// The fraction of its cell a glyph's coverage fills.
    private static func mean(_ fine: ArraySlice<UInt8>) -> Float {
        Float(fine.reduce(0) { $0 + Int($1) }) / Float(255 * fine.count)
    }

    /// The index of the glyph whose lightness is nearest `l`, the first such glyph on a tie; for a set in order of
    /// lightness, as `ramp` is.
    ///
    /// A binary search for the first glyph at least as light, then a look at it and the glyph before: one lookup a
    /// cell in `ascii`, where a scan of the ramp cost most of the render.
    func nearest(lightness l: Float) -> Int {
        var low = 0, high = lightness.count
        while low < high {
            let mid = (low + high) / 2
            if lightness[mid] < l { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return 0 }
        guard low < lightness.count else { return first(ofLightness: lightness.count - 1) }
        let below = first(ofLightness: low - 1)
        return abs(lightness[below] - l) <= abs(lightness[low] - l) ? below : low
    }

    /// The first glyph with the same lightness as glyph `i`.
    private func first(ofLightness i: Int) -> Int {
        var i = i
        while i > 0, lightness[i - 1] == lightness[i] { i -= 1 }
        return i
    }

    var maxLightness: Float { lightness.max() ?? 0 }
}

extension GlyphSet {
    /// The set of `characters` that have a coverage, measured. (In an extension, so the memberwise initialiser that
    /// GlyphSet+Tables.swift's literals use stays.)
    init(_ characters: [Character]) {
        var glyphs: [Character] = [], coverage: [Float] = [], pattern: [Float] = [], lightness: [Float] = []
        let line = GlyphSet.fineColumns, fx = line / GlyphSet.columns, fy = GlyphSet.fineRows / GlyphSet.rows
        for character in characters {
            guard let fine = GlyphSet.fineCoverage(of: character) else { continue }
            let mean = GlyphSet.mean(fine)
            glyphs.append(character)
            coverage.append(mean)
            lightness.append(ColorSpace.lightness(mean))
            for py in 0..<GlyphSet.rows {
                for px in 0..<GlyphSet.columns {
                    var s = 0
                    for y in 0..<fy {
                        for x in 0..<fx { s += Int(fine[fine.startIndex + (py * fy + y) * line + px * fx + x]) }
                    }
                    pattern.append(ColorSpace.lightness(Float(s) / Float(255 * fx * fy)))
                }
            }
        }
        self.glyphs = glyphs
        self.coverage = coverage
        self.pattern = pattern
        self.lightness = lightness
    }

    /// The tone ramp: glyphs that read as an even texture rather than a shape, from empty to dense.
    static func computedRamp() -> GlyphSet {
        GlyphSet(" .-':,;~\"^!*r+=<>?|lcivtxzsunoeyawhkdbqpXUGAE9O0&#8RBNWM@"
            .map { ($0, mean(fineCoverage(of: $0)!)) }
            .sorted { $0.1 < $1.1 }
            .map(\.0))
    }

    /// Every printable ASCII glyph, for shape matching.
    static func computedAll() -> GlyphSet {
        GlyphSet((32..<127).map { Character(Unicode.Scalar(UInt8($0))) })
    }
}
