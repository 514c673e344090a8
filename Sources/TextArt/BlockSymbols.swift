/// The block-element and braille glyphs a mode draws with, indexed by which bands of a cell they cover.
///
/// Glyphs are drawn on a grid of `columns x rows` pixels a cell. Rows no glyph's edge passes between are merged
/// into bands, so a glyph set with edges at thirds and eighths of the cell (24 rows) is judged on 10 bands of rows,
/// not 24. The bands are numbered row by row, left to right; bit i of a mask is set when the glyph covers band i
/// (shows the foreground colour there).
///
/// The picture is sampled on `columns x sampleRows` pixels a cell, which may be coarser than the glyphs' grid: a
/// sample row that straddles two bands gives each its share.
///
/// The four sets (`halfBlocks`, `quadrants`, `sextants`, `braille`) are literals in the generated
/// BlockSymbols+Tables.swift, laid out by the compiler: building the sextants took 1.4 M instructions of a 25 M
/// `render`. BlockSymbols+Computing.swift builds them from their glyphs, for `GeneratedTablesTests`, which writes and
/// checks that file.
struct BlockSymbols: Sendable, Equatable {
    /// Pixels across a cell, and down it on the grid the glyphs are drawn on.
    let columns: Int
    let rows: Int
    /// Pixels down a cell that the picture is sampled on.
    let sampleRows: Int
    /// How many of the glyph grid's rows each band of rows spans.
    let bandHeights: [Int]
    /// Each sample row's shares of the bands of rows it overlaps: entries `shareStart[r]..<shareStart[r + 1]` of
    /// `shareBand` (the band row times `columns`: the first band of that row) and `shareWeight`.
    let shareStart: [Int]
    let shareBand: [Int]
    let shareWeight: [Float]
    /// How many sample pixels each band holds.
    let bandSizes: [Float]
    /// Every mask with a glyph, and its glyph.
    let drawable: [Int]
    let drawableGlyphs: [Character]
    /// One mask for each way of splitting a cell's bands in two that some glyph draws (a mask and its complement
    /// are the same split with the colours swapped); 0 is the split that leaves the cell one colour. Each split's
    /// mask has a glyph; its complement may have one too.
    let splits: [Int]
    let splitGlyphs: [Character]
    let complementGlyphs: [Character?]
    /// One over the number of sample pixels each split's foreground has, and its background (0 for none): the
    /// factors of their means. (Dividing, or counting bits at render time, cost more than the rest of judging a
    /// split.)
    let splitScales: [SIMD2<Float>]
    /// How to sum a cell's bands over every split's foreground at once.
    let splitSums: SubsetSums
    /// How to sum a cell's bands over every drawable mask at once.
    let drawableSums: SubsetSums

    var pixelCount: Int { columns * sampleRows }
    var bandCount: Int { columns * bandHeights.count }
    /// Whether every band is one sample pixel and every pattern of them has its own glyph (in mask order).
    var isComplete: Bool { bandCount == pixelCount && sampleRows == rows && drawable.count == 1 << bandCount }

    /// The sample rows' shares of the bands (`shareStart`, `shareBand`, `shareWeight`) as raw pointers, for the
    /// per-pixel loops.
    @inline(__always)
    func withShares<Result>(
        _ body: (UnsafePointer<Int>, UnsafePointer<Int>, UnsafePointer<Float>) -> Result
    ) -> Result {
        shareStart.withUnsafeBufferPointer { start in
            shareBand.withUnsafeBufferPointer { band in
                shareWeight.withUnsafeBufferPointer { weight in
                    body(start.baseAddress!, band.baseAddress!, weight.baseAddress!)
                }
            }
        }
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
}
