/// The block-element and braille glyphs a mode draws with, indexed by which of a cell's pixels they cover.
///
/// A cell's pixels are numbered row by row, left to right; bit i of a mask is set when the glyph covers pixel i
/// (shows the foreground colour there).
struct BlockSymbols: Sendable {
    /// Pixels across and down a cell.
    let columns: Int
    let rows: Int
    /// The glyph for each mask that has one (`1 << (columns * rows)` entries).
    let glyphs: [Character?]
    /// Every mask with a glyph.
    let drawable: [Int]
    /// One mask for each way of splitting a cell's pixels in two that some glyph draws (a mask and its complement
    /// are the same split with the colours swapped); 0 is the split that leaves the cell one colour.
    let splits: [Int]
    /// How many pixels each split's foreground has, and its background, as the divisors of their means. (Counting
    /// bits at render time cost more than the rest of judging a split: Swift's generic x86-64 has no POPCNT.)
    let splitSizes: [SIMD2<Float>]
    /// How to sum a cell's pixels over every split's foreground at once.
    let splitSums: SubsetSums
    /// How to sum a cell's pixels over every drawable mask at once.
    let drawableSums: SubsetSums

    var pixelCount: Int { columns * rows }
    /// Whether every pattern of pixels has its own glyph.
    var isComplete: Bool { drawable.count == glyphs.count }

    init(columns: Int, rows: Int, glyphs table: [Int: Character]) {
        self.columns = columns
        self.rows = rows
        let all = (1 << (columns * rows)) - 1
        var glyphs = [Character?](repeating: nil, count: all + 1)
        for (mask, glyph) in table { glyphs[mask] = glyph }
        self.glyphs = glyphs
        drawable = table.keys.sorted()
        var splits: [Int] = [0]
        var seen: Set<Int> = [0, all]
        for mask in drawable where !seen.contains(mask) {
            seen.insert(mask); seen.insert(all ^ mask)
            splits.append(mask)
        }
        self.splits = splits
        splitSizes = splits.map { SIMD2(Float($0.nonzeroBitCount), Float(columns * rows - $0.nonzeroBitCount)) }
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

    /// Sextants together with quadrants and half blocks, on a 2x6 grid where thirds and halves both fall on pixel
    /// edges.
    static let sextants: BlockSymbols = {
        var table: [Int: Character] = [:]
        for (mask, glyph) in quadrantGlyphs.enumerated() {
            table[expand(mask, columns: 2, fromRows: 2, toRows: 6)] = glyph
        }
        for (mask, glyph) in sextantGlyphs.enumerated() {
            table[expand(mask, columns: 2, fromRows: 3, toRows: 6)] = glyph
        }
        return BlockSymbols(columns: 2, rows: 6, glyphs: table)
    }()

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
