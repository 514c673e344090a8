import Cells
import Pixels

/// Turns a bitmap into a grid of text cells: the one renderer behind both `thumbtable render` and the table's
/// thumbnails, so both show the same cells for the same size and options.
///
/// Pure and synchronous; call it off the main actor.
public enum TextArtRenderer {
    /// The picture drawn into exactly `columns` x `rows` cells (stretched if the grid's shape differs from the
    /// picture's; use `fit` first to keep its aspect ratio).
    public static func render(_ bitmap: Bitmap, columns: Int, rows: Int, options: TextArtOptions = .default)
        -> CellBuffer {
        guard columns > 0, rows > 0 else { return CellBuffer(width: columns, height: rows) }
        let (sw, sh) = cellPixels(options.mode)
        var image = LinearImage(resampling: bitmap, width: columns * sw, height: rows * sh,
                                background: options.background)
        switch options.mode {
        case .ascii:
            return GlyphRenderer.render(image, columns: columns, rows: rows, shapes: false, options: options)
        case .shapes:
            return GlyphRenderer.render(image, columns: columns, rows: rows, shapes: true, options: options)
        case .blocks, .quadrants, .sextants, .braille:
            if options.mode == .sextants {
                let amounts = sharpening(options.color)
                Sharpening.unsharp(&image, across: amounts.across, down: amounts.down, cellColumns: sw, cellRows: sh)
            }
            return BlockRenderer.render(image, columns: columns, rows: rows,
                                        symbols: BlockSymbols.forMode(options.mode)!, options: options)
        }
    }

    /// The largest grid inside `maxColumns` x `maxRows` that keeps the picture's aspect ratio, for cells
    /// `cellAspect` (width / height) wide.
    ///
    /// The rule of the quality tool's `fitgrid.py`, so every renderer compared is asked for the same grid: fill the
    /// width, and if that is too tall, fill the height instead (rounding half to even, as Python does).
    public static func fit(imageWidth: Int, imageHeight: Int, maxColumns: Int, maxRows: Int,
                           cellAspect: Double = 0.5) -> (columns: Int, rows: Int) {
        guard imageWidth > 0, imageHeight > 0, maxColumns > 0, maxRows > 0, cellAspect > 0 else { return (0, 0) }
        let aspect = Double(imageWidth) / Double(imageHeight)
        let rows = max(1, Int((Double(maxColumns) * cellAspect / aspect).rounded(.toNearestOrEven)))
        if rows <= maxRows { return (maxColumns, rows) }
        let columns = max(1, Int((Double(maxRows) * aspect / cellAspect).rounded(.toNearestOrEven)))
        return (min(columns, maxColumns), maxRows)
    }

    /// What a decoder should cover (at least) for a grid of cells, so it can shrink while decoding: twice the pixel
    /// grid the mode works on.
    ///
    /// The headroom is for quality: averaging at least 2x2 decoded pixels into each working pixel keeps small
    /// bright details (stars in a deep-field photo) that a decode at just the working size blurs away; it raised
    /// the quality tool's score of JPEGs by up to 0.05 and left other images unchanged.
    public static func sourcePixelSize(columns: Int, rows: Int, mode: RenderMode) -> (width: Int, height: Int) {
        let (sw, sh) = cellPixels(mode)
        return (max(0, columns) * sw * decodeHeadroom, max(0, rows) * sh * decodeHeadroom)
    }

    /// `fit(imageWidth:imageHeight:maxColumns:maxRows:cellAspect:)` for a box given as a `CellSize`.
    public static func fit(imageWidth: Int, imageHeight: Int, in box: CellSize, cellAspect: Double = 0.5) -> CellSize {
        let grid = fit(imageWidth: imageWidth, imageHeight: imageHeight, maxColumns: box.columns, maxRows: box.rows,
                       cellAspect: cellAspect)
        return CellSize(columns: grid.columns, rows: grid.rows)
    }

    /// `sourcePixelSize(columns:rows:mode:)` for a grid given as a `CellSize`.
    public static func sourcePixelSize(_ grid: CellSize, mode: RenderMode) -> (width: Int, height: Int) {
        sourcePixelSize(columns: grid.columns, rows: grid.rows, mode: mode)
    }

    static let decodeHeadroom = 2

    /// How much sextant mode sharpens the sampled picture across and down before fitting glyphs, for a colour depth.
    ///
    /// Two colours a cell lose some of each cell's contrast, and a little more contrast at the scale of half a cell
    /// gives it back (0.3 raised the quality tool's score of truecolor sextants by 0.002, 0.6 lowered it; half blocks,
    /// quadrants and braille, whose pixels are coarser than the blur's reach, scored up to 0.004 lower with it). Down a
    /// cell needs more: its glyphs put edges at thirds, halves and quarters down but only at the half across, so its
    /// rows keep finer detail for the split to show, and the blur down, one sample row, reaches only two thirds as far
    /// as the one across. 0.15 across and 0.45 down against 0.3 each way: truecolor 0.8629 against 0.8624 at 40x20, 256
    /// colours 0.8314 against 0.8311. Sixteen colours and monochrome snap each cell's colours to entries far apart,
    /// which already adds contrast: for them the even 0.3 scored higher (0.6177 against 0.6140 and 0.4134 against
    /// 0.4125 at 40x20).
    static func sharpening(_ depth: ColorDepth) -> (across: Float, down: Float) {
        switch depth {
        case .none, .ansi16: (0.3, 0.3)
        case .palette256, .truecolor: (0.15, 0.45)
        }
    }

    /// Pixels across and down one cell that a mode samples the picture on.
    static func cellPixels(_ mode: RenderMode) -> (Int, Int) {
        switch mode {
        case .ascii: (1, 1)
        case .shapes: (GlyphSet.columns, GlyphSet.rows)
        case .blocks, .quadrants, .sextants, .braille:
            (BlockSymbols.forMode(mode)!.columns, BlockSymbols.forMode(mode)!.sampleRows)
        }
    }
}
