import Cells

/// Where the user stands in the rows and how they are laid out: the selection and the top row (`ListViewport`), and
/// the list or the grid with its zoom and its pictures across (`ListLayout`). Every move keeps the selected row on
/// screen. It reads the list it is given and owns nothing else; what it has to say comes back as a status note.
struct Navigation {
    /// The selected row and the row at the top.
    private(set) var viewport = ListViewport()
    /// Where rows go on the screen.
    private(set) var layout: ListLayout

    init(sizing: ThumbnailSizing, mode: LayoutMode) {
        layout = ListLayout(sizing: sizing, mode: mode)
    }

    /// The screen's size.
    var size: (columns: Int, rows: Int) { (layout.columns, layout.rows) }

    /// The display rows on screen now.
    func visibleRows(in list: ListState) -> Range<Int> {
        layout.visibleRows(viewport, in: list)
    }

    /// The display rows on screen, their heights measured and cached (`update()`).
    mutating func measureAreaRows(in list: ListState) -> Range<Int> {
        layout.measureAreaRows(viewport, in: list)
    }

    /// Runs a viewport operation in the layout's own steps: rows in the list, lines of cells in the grid (see
    /// `ListLayout.apply`).
    private mutating func arrange(in list: ListState,
                                  _ operation: (inout ListViewport, _ count: Int, _ height: Int,
                                                _ rowHeight: (Int) -> Int) -> Void) {
        layout.apply(operation, to: &viewport, in: list)
    }

    /// Scrolls so that the selected row shows.
    mutating func reveal(in list: ListState) {
        arrange(in: list) { $0.reveal(count: $1, height: $2, rowHeight: $3) }
    }

    /// Sets the screen size, re-laying rows out and keeping the selected row on screen.
    mutating func resize(columns: Int, rows: Int, in list: ListState) {
        guard columns != layout.columns || rows != layout.rows else { return }
        layout.resize(columns: columns, rows: rows)
        reveal(in: list)
    }

    /// Makes the thumbnails `steps` zoom steps bigger (negative: smaller); in the grid a step is one picture fewer
    /// across (bigger) or more. Returns the note when a bound is reached.
    mutating func zoom(by steps: Int, in list: ListState) -> String? {
        if layout.grid != nil { return changeGridColumns(by: -steps, in: list) }
        let note = layout.zoom(by: steps)
        reveal(in: list)
        return note
    }

    /// Changes the grid's pictures across by `delta`, within what the width holds; returns the note when it cannot
    /// go further.
    mutating func changeGridColumns(by delta: Int, in list: ListState) -> String? {
        guard let grid = layout.grid else { return nil }
        let wanted = grid.columnCount + delta
        let widest = GridLayout.maxColumns(width: layout.columns)
        layout.setGridColumns(wanted)
        var note: String?
        if wanted < 1 { note = "one picture across is the biggest" }
        if wanted > widest { note = "\(widest) pictures across is the most this width holds" }
        reveal(in: list)
        return note
    }

    /// Switches between the list and the grid, keeping the selected item on screen.
    mutating func setMode(_ mode: LayoutMode, in list: ListState) {
        guard mode != layout.mode else { return }
        layout.setMode(mode)
        reveal(in: list)
    }

    /// Moves the selection by `delta` rows (in the grid, lines of cells, keeping the column).
    mutating func move(by delta: Int, in list: ListState) {
        arrange(in: list) { $0.move(by: delta, count: $1, height: $2, rowHeight: $3) }
    }

    /// Moves the selection by `delta` items in reading order (left and right in the grid).
    mutating func moveAcross(by delta: Int, in list: ListState) {
        guard list.displayCount > 0 else { return }
        viewport.selection = min(max(0, viewport.selection + delta), list.displayCount - 1)
        reveal(in: list)
    }

    mutating func page(by fraction: Double, in list: ListState) {
        arrange(in: list) { $0.page(by: fraction, count: $1, height: $2, rowHeight: $3) }
    }

    mutating func scroll(by rows: Int, in list: ListState) {
        arrange(in: list) { $0.scroll(by: rows, count: $1, height: $2, rowHeight: $3) }
    }

    mutating func home() {
        viewport.home()
    }

    /// Selects the last item, or the status row when a key acts on it, with the end of the list on screen.
    mutating func selectLastRow(in list: ListState) {
        // The screen ends with the last row, status row included, so the end shows below the last item.
        arrange(in: list) { $0.end(count: $1, height: $2, rowHeight: $3) }
        viewport.selection = list.statusRowActs || list.itemCount == 0 ? max(0, list.displayCount - 1)
            : list.itemCount - 1
        reveal(in: list)
    }

    /// Selects `row` and shows it at the top.
    mutating func jump(toRow row: Int, in list: ListState) {
        viewport = ListViewport(selection: row, top: row)
        viewport.clamp(count: list.displayCount)
    }

    /// Selects `row` and shows it (the detail pane moved on to it).
    mutating func select(row: Int, in list: ListState) {
        viewport.selection = row
        reveal(in: list)
    }

    /// Selects the row (in the grid, the cell) at a line of the list area and a column; returns whether one was hit.
    mutating func select(line: Int, column: Int, in list: ListState) -> Bool {
        guard let row = layout.row(atLine: line, column: column, viewport, in: list) else { return false }
        select(row: row, in: list)
        return true
    }

    /// Starts again from the top with `row` selected (the rows changed under the filter).
    mutating func restart(selecting row: Int, in list: ListState) {
        viewport = ListViewport(selection: row, top: 0)
        reveal(in: list)
    }

    /// Sets the lines a panel covers at the bottom of the list area, and scrolls so that the selected row shows above
    /// it.
    /// Returns whether the cover changed.
    @discardableResult
    mutating func cover(lines: Int, in list: ListState) -> Bool {
        guard lines != layout.coveredLines else { return false }
        layout.cover(lines: lines)
        reveal(in: list)
        return true
    }

    /// The lines the selected row needs to show whole: its thumbnail and text without the blank line under it; in
    /// the grid, its cell's picture and caption.
    func selectedRowLines(in list: ListState) -> Int {
        if let grid = layout.grid {
            return grid.lineHeight(grid.line(ofRow: viewport.selection, in: list), in: list) - 1
        }
        let height = layout.rowHeight(viewport.selection, in: list)
        return height - layout.row.gap
    }

    /// Forgets the cached height of an item's row (its item changed).
    mutating func forgetHeight(ofItem index: Int) {
        layout.forgetHeight(ofItem: index)
    }

    /// The lines of the list area the rows on screen fill: the rows' heights, or in the grid the heights of its
    /// lines on screen (a row's height there is a cell's, not a line's).
    func filledLines(in list: ListState) -> Int {
        if let grid = layout.grid {
            return grid.visibleLines(viewport, height: layout.listHeight, in: list).reduce(0) {
                $0 + grid.lineHeight($1, in: list)
            }
        }
        return layout.areaRows(viewport, in: list).reduce(0) { $0 + layout.rowHeight($1, in: list) }
    }
}
