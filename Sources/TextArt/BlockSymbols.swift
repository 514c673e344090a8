/// The block-element and braille glyphs a mode draws with, indexed by which bands of a cell they cover.
///
/// A cell is sampled on a grid of `columns x rows` pixels. Rows no glyph's edge passes between are merged into
/// bands, so a glyph set with edges at thirds and eighths of the cell (24 rows) is judged on 10 bands of rows, not
/// 24. The bands are numbered row by row, left to right; bit i of a mask is set when the glyph covers band i (shows
/// the foreground colour there).
struct BlockSymbols: Sendable {
    /// Pixels across and down a cell.
    let columns: Int
    let rows: Int
    /// The band of rows each row of pixels belongs to, top to bottom.
    let bandRowOfRow: [Int]
    /// How many rows each band of rows spans.
    let bandHeights: [Int]
    /// The glyph for each mask (over bands) that has one.
    let glyphs: [Int: Character]
    /// Every mask with a glyph.
    let drawable: [Int]
    /// One mask for each way of splitting a cell's bands in two that some glyph draws (a mask and its complement
    /// are the same split with the colours swapped); 0 is the split that leaves the cell one colour.
    let splits: [Int]
    /// How many pixels each split's foreground has, and its background, as the divisors of their means. (Counting
    /// bits at render time cost more than the rest of judging a split: Swift's generic x86-64 has no POPCNT.)
    let splitSizes: [SIMD2<Float>]
    /// How to sum a cell's bands over every split's foreground at once.
    let splitSums: SubsetSums
    /// How to sum a cell's bands over every drawable mask at once.
    let drawableSums: SubsetSums

    var pixelCount: Int { columns * rows }
    var bandCount: Int { columns * bandHeights.count }
    /// Whether every band is one pixel and every pattern of them has its own glyph.
    var isComplete: Bool { bandCount == pixelCount && drawable.count == 1 << pixelCount }

    /// A glyph set from masks over the cell's pixels (`columns * rows` of them, at most 63).
    init(columns: Int, rows: Int, glyphs pixelTable: [Int: Character]) {
        self.columns = columns
        self.rows = rows
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
        self.bandRowOfRow = bandRowOfRow
        self.bandHeights = bandHeights
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
        glyphs = table
        drawable = table.keys.sorted()
        let all = (1 << (columns * bandHeights.count)) - 1
        let bandSizes = (0..<(columns * bandHeights.count)).map { bandHeights[$0 / columns] }
        var splits: [Int] = [0]
        var seen: Set<Int> = [0, all]
        for mask in drawable where !seen.contains(mask) {
            seen.insert(mask); seen.insert(all ^ mask)
            splits.append(mask)
        }
        self.splits = splits
        let pixels = columns * rows
        splitSizes = splits.map { mask in
            let covered = bandSizes.indices.reduce(0) { mask & (1 << $1) != 0 ? $0 + bandSizes[$1] : $0 }
            return SIMD2(Float(covered), Float(pixels - covered))
        }
        splitSums = SubsetSums(masks: splits)
        drawableSums = SubsetSums(masks: drawable)
    }

    static func forMode(_ mode: RenderMode) -> BlockSymbols? {
        switch mode {
        case .blocks: halfBlocks
        case .quadrants: quadrants
        case .sextants: sextants
        case .braille: braille
        case .ascii, .shapes: nil
        }
    }

    static let halfBlocks = BlockSymbols(columns: 1, rows: 2, glyphs: [0: " ", 1: "▀", 2: "▄", 3: "█"])

    static let quadrantGlyphs = Array(" ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█")
    static let quadrants = BlockSymbols(
        columns: 2, rows: 2, glyphs: Dictionary(uniqueKeysWithValues: quadrantGlyphs.enumerated().map { ($0, $1) }))

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

    /// Sextants together with the block elements most fonts have: quadrants, half blocks, and the bars of eighths
    /// from the bottom (▁▂▃▄▅▆▇) and top (▔), on a 2x24 grid where thirds, quarters and eighths all fall on pixel
    /// edges.
    ///
    /// The bars of eighths put an edge anywhere in a cell's height, where sextants and halves offer three places;
    /// most edges in pictures are closer to horizontal than vertical in a cell twice as tall as wide. (Adding the
    /// bars of eighths from the left too raised the quality tool's score by less than 0.001 more.)
    static let sextants: BlockSymbols = {
        let rows = 24
        var table: [Int: Character] = [:]
        for (mask, glyph) in quadrantGlyphs.enumerated() {
            table[expand(mask, columns: 2, fromRows: 2, toRows: rows)] = glyph
        }
        for (mask, glyph) in sextantGlyphs.enumerated() {
            table[expand(mask, columns: 2, fromRows: 3, toRows: rows)] = glyph
        }
        for (eighths, glyph) in zip(1...7, "▁▂▃▄▅▆▇") {
            table[bar(fromRow: rows - 3 * eighths, toRow: rows, columns: 2)] = glyph
        }
        table[bar(fromRow: 0, toRow: 3, columns: 2)] = "▔"
        return BlockSymbols(columns: 2, rows: rows, glyphs: table)
    }()

    /// The mask of whole rows `fromRow..<toRow`.
    static func bar(fromRow: Int, toRow: Int, columns: Int) -> Int {
        ((1 << ((toRow - fromRow) * columns)) - 1) << (fromRow * columns)
    }

    /// Braille dots 1-8 are numbered down the left column (1 2 3 7) then the right (4 5 6 8).
    static let braille = BlockSymbols(columns: 2, rows: 4, glyphs: Dictionary(uniqueKeysWithValues: (0..<256).map {
        mask in
        let dotBit: [UInt32] = [0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80]  // pixel (row*2+col) -> dot
        var code: UInt32 = 0
        for pixel in 0..<8 where mask & (1 << pixel) != 0 { code |= dotBit[pixel] }
        return (mask, Character(Unicode.Scalar(0x2800 + code)!))
    }))

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
