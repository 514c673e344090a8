import Cells

/// Where items go in the grid view: lines of equal cells across the width, each cell a picture with its caption
/// under it, and the status row (loading more, an error, the end) on a line of its own after the last item.
///
/// The table's viewport stays in display rows (the selected item, the first item on screen), so switching between
/// the list and the grid keeps the selection. The grid moves in lines: it turns the viewport into one over lines
/// (`lines(of:in:)`), lets `ListViewport` do the moving, scrolling and revealing, and turns it back keeping the
/// selected column (`viewport(from:column:in:)`). Every answer costs the lines on screen, not the items loaded.
public struct GridLayout: Sendable, Equatable {
    /// The width of the list area.
    public let width: Int
    /// Cells across.
    public let columnCount: Int
    /// The width of one cell: a column for the selection marker, the picture, a column of gap.
    public let cellWidth: Int
    /// The picture's box in each cell.
    public let picture: CellSize

    /// The narrowest picture a cell holds; more columns than fit at this width are not offered.
    public static let minPictureColumns = 6
    /// The picture width the default column count aims at: big enough to recognise a photo.
    static let preferredPictureColumns = 24
    /// Picture rows per picture column: a 4:3 photo in cells twice as tall as wide is 0.375, a square one 0.5.
    static let rowsPerColumn = 0.42
    /// The status row's line: one line of text and a blank one.
    static let statusLineHeight = 2

    /// - Parameters:
    ///   - columns: cells across, or nil for as many as give pictures about `preferredPictureColumns` wide.
    ///   - height: the list area's height; a cell is never taller than it.
    public init(width: Int, height: Int, columns: Int? = nil) {
        self.width = max(1, width)
        let widest = Self.maxColumns(width: self.width)
        let wanted = columns ?? (self.width + 2) / (Self.preferredPictureColumns + 2)
        columnCount = min(max(1, wanted), widest)
        cellWidth = self.width / columnCount
        let pictureColumns = max(1, cellWidth - 2)
        let rows = Int((Double(pictureColumns) * Self.rowsPerColumn).rounded())
        // Room for the caption and the blank line under the picture.
        picture = CellSize(columns: pictureColumns, rows: max(1, min(rows, height - 2)))
    }

    /// The most cells across at this width.
    public static func maxColumns(width: Int) -> Int {
        max(1, width / (minPictureColumns + 2))
    }

    /// The height of one line of cells: the picture, its caption, a blank line.
    public var cellHeight: Int { picture.rows + 2 }

    // MARK: Lines

    /// Lines holding items.
    func itemLines(_ list: ListState) -> Int {
        (list.itemCount + columnCount - 1) / columnCount
    }

    /// Lines in all: the items' and the status row's.
    func lineCount(_ list: ListState) -> Int {
        itemLines(list) + (list.hasStatusRow ? 1 : 0)
    }

    func lineHeight(_ line: Int, in list: ListState) -> Int {
        line < itemLines(list) ? cellHeight : Self.statusLineHeight
    }

    /// The line a display row is on.
    func line(ofRow row: Int, in list: ListState) -> Int {
        row < list.itemCount ? max(0, row) / columnCount : itemLines(list)
    }

    /// The column a display row is in (0 for the status row).
    func column(ofRow row: Int, in list: ListState) -> Int {
        row < list.itemCount ? max(0, row) % columnCount : 0
    }

    /// The first display row on a line.
    func firstRow(onLine line: Int, in list: ListState) -> Int {
        line < itemLines(list) ? line * columnCount : list.itemCount
    }

    /// The display row at a line and column: the line's last item when its column is empty, the status row on the
    /// status line.
    func row(onLine line: Int, column: Int, in list: ListState) -> Int {
        guard line < itemLines(list) else { return list.hasStatusRow ? list.itemCount : max(0, list.itemCount - 1) }
        return min(line * columnCount + min(max(0, column), columnCount - 1), list.itemCount - 1)
    }

    // MARK: The viewport in lines

    /// The viewport over lines: the selected row's line, the top row's line.
    func lines(of viewport: ListViewport, in list: ListState) -> ListViewport {
        ListViewport(selection: line(ofRow: viewport.selection, in: list), top: line(ofRow: viewport.top, in: list))
    }

    /// The viewport over display rows for a viewport over lines, the selection in `column`.
    func viewport(from lines: ListViewport, column: Int, in list: ListState) -> ListViewport {
        ListViewport(selection: row(onLine: lines.selection, column: column, in: list),
                     top: firstRow(onLine: lines.top, in: list))
    }

    /// Runs a viewport operation over lines (moving, paging, scrolling, revealing) on a viewport over display rows,
    /// keeping the selected column.
    func apply(_ operation: (inout ListViewport, _ count: Int, _ height: Int, _ lineHeight: (Int) -> Int) -> Void,
               to viewport: inout ListViewport, height: Int, in list: ListState) {
        var overLines = lines(of: viewport, in: list)
        let column = column(ofRow: viewport.selection, in: list)
        operation(&overLines, lineCount(list), height) { lineHeight($0, in: list) }
        viewport = self.viewport(from: overLines, column: column, in: list)
    }

    /// The lines on screen.
    func visibleLines(_ viewport: ListViewport, height: Int, in list: ListState) -> Range<Int> {
        lines(of: viewport, in: list).visibleRows(count: lineCount(list), height: height) { lineHeight($0, in: list) }
    }

    /// The display rows on screen: every cell of the lines on screen, and the status row when its line shows.
    func visibleRows(_ viewport: ListViewport, height: Int, in list: ListState) -> Range<Int> {
        let lines = visibleLines(viewport, height: height, in: list)
        let start = firstRow(onLine: lines.lowerBound, in: list)
        let end = lines.upperBound > itemLines(list) ? list.displayCount
            : min(list.itemCount, lines.upperBound * columnCount)
        return start..<max(start, end)
    }

    /// The display rows on screen, each with the cell's column and line in the list area.
    func placedCells(_ viewport: ListViewport, height: Int, in list: ListState) -> [FrameModel.Placed] {
        var placed: [FrameModel.Placed] = []
        var y = 0
        for line in visibleLines(viewport, height: height, in: list) {
            let start = firstRow(onLine: line, in: list)
            if line < itemLines(list) {
                for row in start..<min(list.itemCount, start + columnCount) {
                    placed.append(FrameModel.Placed(row: row, x: (row - start) * cellWidth, y: y))
                }
            } else {
                placed.append(FrameModel.Placed(row: start, x: 0, y: y))
            }
            y += lineHeight(line, in: list)
        }
        return placed
    }

    /// The display row under a point of the list area (a click), or nil where no cell is.
    func row(atLine line: Int, column x: Int, _ viewport: ListViewport, height: Int, in list: ListState) -> Int? {
        guard line >= 0, line < height else { return nil }
        guard let gridLine = lines(of: viewport, in: list).row(atLine: line, count: lineCount(list), rowHeight: { lineHeight($0, in: list) })
        else { return nil }
        guard gridLine < itemLines(list) else { return list.itemCount }
        let column = max(0, x) / cellWidth
        let row = gridLine * columnCount + column
        return column < columnCount && row < list.itemCount ? row : nil
    }
}
