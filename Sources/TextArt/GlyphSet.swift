/// Printable ASCII glyphs with how much of a cell each covers, overall and at a coarse grid, for tone and shape
/// matching.
struct GlyphSet: Sendable {
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

    init(_ characters: [Character]) {
        var glyphs: [Character] = [], coverage: [Float] = [], pattern: [Float] = [], lightness: [Float] = []
        let fx = 8 / GlyphSet.columns, fy = 16 / GlyphSet.rows
        for character in characters {
            guard let ascii = character.asciiValue, ascii >= 32, ascii < 127 else { continue }
            let fine = GlyphSet.fineCoverage[Int(ascii) - 32]
            var sum: Float = 0
            for v in fine { sum += v }
            let mean = sum / Float(fine.count)
            glyphs.append(character)
            coverage.append(mean)
            lightness.append(ColorSpace.lightness(mean))
            for py in 0..<GlyphSet.rows {
                for px in 0..<GlyphSet.columns {
                    var s: Float = 0
                    for y in 0..<fy { for x in 0..<fx { s += fine[(py * fy + y) * 8 + px * fx + x] } }
                    pattern.append(ColorSpace.lightness(s / Float(fx * fy)))
                }
            }
        }
        self.glyphs = glyphs
        self.coverage = coverage
        self.pattern = pattern
        self.lightness = lightness
    }

    /// 8x16 coverage (0...1) of each printable ASCII glyph, decoded from the generated table.
    static let fineCoverage: [[Float]] = glyphCoverageHex.map { hex in
        var values: [Float] = []
        values.reserveCapacity(128)
        var high: UInt8?
        for unit in hex.utf8 {
            let digit = unit <= 57 ? unit - 48 : unit - 87
            if let h = high {
                values.append(Float(h << 4 | digit) / 255)
                high = nil
            } else {
                high = digit
            }
        }
        return values
    }

    /// The tone ramp: glyphs that read as an even texture rather than a shape, from empty to dense.
    static let ramp = GlyphSet(Array(" .-':,;~\"^!*r+=<>?|lcivtxzsunoeyawhkdbqpXUGAE9O0&#8RBNWM@").sorted {
        fineMean($0) < fineMean($1)
    })

    /// Every printable ASCII glyph, for shape matching.
    static let all = GlyphSet((32..<127).map { Character(Unicode.Scalar(UInt8($0))) })

    private static func fineMean(_ c: Character) -> Float {
        let fine = fineCoverage[Int(c.asciiValue!) - 32]
        return fine.reduce(0, +) / Float(fine.count)
    }

    /// The index of the glyph whose lightness is nearest `l`.
    func nearest(lightness l: Float) -> Int {
        var best = 0
        var bestDistance = Float.infinity
        for i in 0..<lightness.count {
            let d = abs(lightness[i] - l)
            if d < bestDistance { bestDistance = d; best = i }
        }
        return best
    }

    var maxLightness: Float { lightness.max() ?? 0 }
}
