/// How the glyph sets are built from their glyphs. A render reads the literals of BlockSymbols+Tables.swift instead;
/// `GeneratedTablesTests` writes that file from these and checks that the two agree.
extension BlockSymbols {
    /// A glyph set from masks over the cell's `columns * rows` glyph pixels (at most 63), sampled on `sampleRows`
    /// rows a cell (`rows` unless given).
    init(columns: Int, rows: Int, sampleRows: Int? = nil, glyphs pixelTable: [Int: Character]) {
        self.columns = columns
        self.rows = rows
        let sampleRows = sampleRows ?? rows
        self.sampleRows = sampleRows
        // A band ends where some glyph covers a row differently from the next.
        let rowMask = (1 << columns) - 1
        var bandRowOfRow = [0]
        var bandHeights = [1]
        for row in 1..<rows {
            let edge = pixelTable.keys.contains {
                ($0 >> (row * columns)) & rowMask != ($0 >> ((row - 1) * columns)) & rowMask
            }
            if edge { bandHeights.append(0) }
            bandHeights[bandHeights.count - 1] += 1
            bandRowOfRow.append(bandHeights.count - 1)
        }
        self.bandHeights = bandHeights

        // Sample row r covers glyph rows r * rows / sampleRows ..< (r + 1) * rows / sampleRows: its share of a band
        // is the part of that span the band covers.
        var shareStart = [0], shareBand: [Int] = [], shareWeight: [Float] = []
        var bandTop = [0]
        for height in bandHeights { bandTop.append(bandTop.last! + height) }
        for r in 0..<sampleRows {
            let top = Double(r * rows) / Double(sampleRows), bottom = Double((r + 1) * rows) / Double(sampleRows)
            for band in bandHeights.indices {
                let overlap = min(bottom, Double(bandTop[band + 1])) - max(top, Double(bandTop[band]))
                if overlap > 1e-9 {
                    shareBand.append(band * columns)
                    shareWeight.append(Float(overlap / (bottom - top)))
                }
            }
            shareStart.append(shareBand.count)
        }
        self.shareStart = shareStart
        self.shareBand = shareBand
        self.shareWeight = shareWeight
        let bandCount = columns * bandHeights.count
        let bandSizes = (0..<bandCount).map { Float(bandHeights[$0 / columns] * sampleRows) / Float(rows) }
        self.bandSizes = bandSizes

        var table: [Int: Character] = [:]
        for (mask, glyph) in pixelTable {
            var bands = 0
            for row in 0..<rows {
                for column in 0..<columns where mask & (1 << (row * columns + column)) != 0 {
                    bands |= 1 << (bandRowOfRow[row] * columns + column)
                }
            }
            table[bands] = glyph
        }
        drawable = table.keys.sorted()
        drawableGlyphs = drawable.map { table[$0]! }
        let all = (1 << bandCount) - 1
        var splits: [Int] = [0]
        var seen: Set<Int> = [0, all]
        for mask in drawable where !seen.contains(mask) {
            seen.insert(mask); seen.insert(all ^ mask)
            splits.append(mask)
        }
        self.splits = splits
        splitGlyphs = splits.map { table[$0] ?? " " }
        complementGlyphs = splits.map { table[all ^ $0] }
        let pixels = Float(columns * sampleRows)
        splitScales = splits.map { mask in
            let covered = bandSizes.indices.reduce(Float(0)) { mask & (1 << $1) != 0 ? $0 + bandSizes[$1] : $0 }
            let uncovered = pixels - covered
            return SIMD2(covered > 0 ? 1 / covered : 0, uncovered > 0 ? 1 / uncovered : 0)
        }
        splitSums = SubsetSums(masks: splits, valueCount: bandCount)
        drawableSums = SubsetSums(masks: drawable, valueCount: bandCount)
    }

    /// A mode's glyph set built from its glyphs: what BlockSymbols+Tables.swift holds as literals.
    static func computed(_ mode: RenderMode) -> BlockSymbols? {
        switch mode {
        case .blocks: BlockSymbols(columns: 1, rows: 2, glyphs: [0: " ", 1: "▀", 2: "▄", 3: "█"])
        case .quadrants: computedQuadrants()
        case .sextants: computedSextants()
        case .braille: computedBraille()
        case .ascii, .shapes: nil
        }
    }

    static let quadrantGlyphs = Array(" ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█")
    static func computedQuadrants() -> BlockSymbols {
        BlockSymbols(columns: 2, rows: 2,
                     glyphs: Dictionary(uniqueKeysWithValues: quadrantGlyphs.enumerated().map { ($0, $1) }))
    }

    /// Sextants are U+1FB00...U+1FB3B in mask order, leaving out the four patterns that already exist as blocks.
    static let sextantGlyphs: [Character] = (0..<64).map { mask in
        switch mask {
        case 0: " "
        case 21: "▌"
        case 42: "▐"
        case 63: "█"
        default:
            Character(Unicode.Scalar(0x1FB00 + mask - 1 - (mask > 21 ? 1 : 0) - (mask > 42 ? 1 : 0))!)
        }
    }

    /// Sextants together with quadrants, half blocks and the quarter bars (▂ ▆), on a 2x12 grid where thirds,
    /// halves and quarters all fall on pixel edges, sampled on 6 rows a cell.
    ///
    /// The quarter bars put edges across the cell nearer its top and bottom than the thirds, where no other glyph
    /// has one; a sample row they cut in two gives each side its share, so they cost more bands to judge but no
    /// more resampling. (They raised the quality tool's score of truecolor sextants by 0.0015 at 40x20 and 0.0012 at
    /// 80x40, and of every other colour depth too, for 5% more instructions a render of a small picture and 1% of a
    /// photo. The bars of eighths (▁▂▃▄▅▆▇ ▔) raised it by 0.003 at 40x20, but only when sampled on 12 rows a cell
    /// or more: twice the resampling and fitting, over the render budget.)
    static func computedSextants() -> BlockSymbols {
        var table: [Int: Character] = [:]
        for (mask, glyph) in quadrantGlyphs.enumerated() {
            table[expand(mask, columns: 2, fromRows: 2, toRows: 12)] = glyph
        }
        for (mask, glyph) in sextantGlyphs.enumerated() {
            table[expand(mask, columns: 2, fromRows: 3, toRows: 12)] = glyph
        }
        // On a grid of quarters: the bottom row, and the bottom three rows.
        table[expand(0b11 << 6, columns: 2, fromRows: 4, toRows: 12)] = "▂"
        table[expand(0b11_1111 << 2, columns: 2, fromRows: 4, toRows: 12)] = "▆"
        return BlockSymbols(columns: 2, rows: 12, sampleRows: 6, glyphs: table)
    }

    /// Braille dots 1-8 are numbered down the left column (1 2 3 7) then the right (4 5 6 8).
    static func computedBraille() -> BlockSymbols {
        BlockSymbols(columns: 2, rows: 4, glyphs: Dictionary(uniqueKeysWithValues: (0..<256).map { mask in
            let dotBit: [UInt32] = [0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80]  // pixel (row*2+col) -> dot
            var code: UInt32 = 0
            for pixel in 0..<8 where mask & (1 << pixel) != 0 { code |= dotBit[pixel] }
            return (mask, Character(Unicode.Scalar(0x2800 + code)!))
        }))
    }

    /// A mask on a grid of `fromRows` rows spread over `toRows` rows (a multiple).
    static func expand(_ mask: Int, columns: Int, fromRows: Int, toRows: Int) -> Int {
        let k = toRows / fromRows
        var out = 0
        for row in 0..<fromRows {
            for column in 0..<columns where mask & (1 << (row * columns + column)) != 0 {
                for r in 0..<k { out |= 1 << ((row * k + r) * columns + column) }
            }
        }
        return out
    }
}
