import Cells

/// How the list is shown: rows of thumbnail and text, compact rows (one to three lines each, a small thumbnail), or
/// a grid of pictures with captions.
public enum LayoutMode: String, Sendable, CaseIterable {
    case list, grid, compact
}

/// Where the list's rows go on the screen: the list area, each row's height (cached for the width when measured),
/// the rows that show and the line each starts on; in the grid view, the cells (`GridLayout`). It is the one place
/// that answers "which rows are where", for the list and the grid alike.
public struct ListLayout: Sendable, Equatable {
    /// The screen's size.
    public private(set) var columns = 80, rows = 24
    /// The geometry of one row at this width.
    public private(set) var row: RowLayout
    /// The list, the compact list or the grid.
    public private(set) var mode: LayoutMode
    /// The rows the list showed last, the list's or compact ones: what leaving the grid goes back to.
    public private(set) var rowsMode: LayoutMode
    /// The grid's geometry at this size, in the grid view.
    public private(set) var grid: GridLayout?
    /// The grid's cells across as the user chose them (`+`/`-`), or nil for as many as the width suits.
    private var gridColumns: Int?
    /// The lines of a compact row (`+`/`-` in the compact list).
    public private(set) var compactLines = 2
    /// How big the list's thumbnails are: the rule, the zoom, the bounds.
    public private(set) var sizing: ThumbnailSizing
    /// The thumbnail size the sizing asks for on this screen, before it is shrunk to fit.
    public private(set) var wantedThumbnail: CellSize
    private var heightCache: [Int: Int] = [:]
    /// Lines at the bottom of the list area that a panel covers (the reuse overlay): the rows are laid out, moved
    /// and revealed in the lines above it, so that no cover hides the selection.
    public private(set) var coveredLines = 0

    init(sizing: ThumbnailSizing, mode: LayoutMode = .list) {
        self.sizing = sizing
        self.mode = mode
        self.rowsMode = mode == .grid ? .list : mode
        let size = sizing.size(columns: columns, listHeight: rows - 3)
        self.wantedThumbnail = size.wanted
        self.row = RowLayout(width: columns, thumbnail: size.shown)
        relayRows()
    }

    /// The thumbnail size on this screen (shown only when the screen is wide enough, see `row`).
    public var thumbnail: CellSize {
        sizing.size(columns: columns, listHeight: listHeight).shown
    }

    /// What the status line says when the list's thumbnail size asked for does not fit this screen, or nil (in
    /// the grid, whose pictures are sized by its cells across, always nil).
    public var thumbnailNote: String? {
        guard mode == .list else { return nil }
        return ThumbnailSizing.clampNote(wanted: wantedThumbnail, shown: thumbnail, columns: columns, rows: rows)
    }

    /// Takes a new screen size; the thumbnails follow it, and heights are forgotten when the rows change.
    mutating func resize(columns: Int, rows: Int) {
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        relayRows()
    }

    /// Zooms the thumbnails by `steps`; returns the status line's note when a bound stopped it. In the compact list a
    /// step is a line more or fewer a row (and the thumbnail with it), from one to three.
    mutating func zoom(by steps: Int) -> String? {
        if mode == .compact { return zoomCompact(by: steps) }
        let limit = sizing.zoom(by: steps, columns: columns, listHeight: listHeight)
        relayRows()
        return limit?.note(at: thumbnail)
    }

    /// Makes compact rows `steps` lines taller (negative: shorter), within `RowLayout.compactLineRange`; the note
    /// says where they stand.
    private mutating func zoomCompact(by steps: Int) -> String? {
        let range = RowLayout.compactLineRange
        let wanted = compactLines + steps
        compactLines = min(max(wanted, range.lowerBound), range.upperBound)
        relayRows()
        if wanted < range.lowerBound { return "compact rows at their smallest: one line each" }
        if wanted > range.upperBound { return "compact rows at their largest: \(range.upperBound) lines each" }
        return "compact rows of \(compactLines) line\(compactLines == 1 ? "" : "s")"
    }

    /// Lays rows out anew for the screen, the mode and the thumbnail size, forgetting the heights if the rows changed.
    private mutating func relayRows() {
        let size = sizing.size(columns: columns, listHeight: listHeight)
        wantedThumbnail = size.wanted
        let relaid = mode == .compact ? RowLayout.compact(width: columns, lines: compactLines)
            : RowLayout(width: columns, thumbnail: size.shown)
        if relaid != row {
            row = relaid
            heightCache.removeAll()
        }
        layOutGrid()
    }

    /// Shows the list as rows, compact rows or a grid.
    mutating func setMode(_ mode: LayoutMode) {
        self.mode = mode
        if mode != .grid { rowsMode = mode }
        relayRows()
    }

    /// Sets the grid's cells across (clamped to what the width holds), or nil for as many as the width suits.
    mutating func setGridColumns(_ count: Int?) {
        gridColumns = count.map { min(max(1, $0), GridLayout.maxColumns(width: columns)) }
        layOutGrid()
    }

    private mutating func layOutGrid() {
        grid = mode == .grid ? GridLayout(width: columns, height: listHeight, columns: gridColumns) : nil
    }

    /// The thumbnail's box: the grid's picture, or the row's thumbnail (nil when the screen is too narrow for one).
    public var thumbnailBox: CellSize? { grid?.picture ?? row.thumbnail }

    /// Runs a viewport operation (moving, paging, scrolling, revealing) in the layout's own steps: rows in the list,
    /// lines of cells in the grid, where the selected column is kept. The list's rows are measured as it goes.
    mutating func apply(_ operation: (inout ListViewport, _ count: Int, _ height: Int, _ rowHeight: (Int) -> Int) -> Void,
                        to viewport: inout ListViewport, in list: ListState) {
        if let grid {
            grid.apply(operation, to: &viewport, height: openHeight, in: list)
        } else {
            operation(&viewport, list.displayCount, openHeight) { measure($0, in: list) }
        }
    }

    /// The screen line the list starts on: below the header when there is room for one.
    public var listTop: Int { rows >= 4 ? 1 : 0 }

    /// Lines of the list area: the screen less the header, footer and status lines.
    public var listHeight: Int { rows >= 4 ? rows - 3 : max(1, rows - 1) }

    /// Lines of the list area the rows show in: the list area less what a panel covers at its bottom. Thumbnails
    /// are sized by `listHeight`, so a cover that comes and goes moves rows, not their pictures' sizes.
    public var openHeight: Int { max(1, listHeight - coveredLines) }

    /// Sets the lines a panel covers at the bottom of the list area (0: none).
    mutating func cover(lines: Int) {
        coveredLines = min(max(0, lines), listHeight - 1)
    }

    /// The height of a display row: its cached height when it was measured, else computed now and not stored, so
    /// that drawing writes nothing.
    func rowHeight(_ display: Int, in list: ListState) -> Int {
        guard let index = list.itemIndex(forRow: display) else { return row.statusRowHeight }
        return heightCache[index] ?? row.height(for: list.items[index])
    }

    /// The height of a display row, cached for this width: keys and `update()` measure, frames read.
    mutating func measure(_ display: Int, in list: ListState) -> Int {
        guard let index = list.itemIndex(forRow: display) else { return row.statusRowHeight }
        if let h = heightCache[index] { return h }
        let h = row.height(for: list.items[index])
        heightCache[index] = h
        return h
    }

    /// Forgets an item's height (the item changed).
    mutating func forgetHeight(ofItem index: Int) {
        heightCache[index] = nil
    }

    /// The display rows on screen for this viewport.
    func visibleRows(_ viewport: ListViewport, in list: ListState) -> Range<Int> {
        if let grid { return grid.visibleRows(viewport, height: openHeight, in: list) }
        return viewport.visibleRows(count: list.displayCount, height: openHeight) { rowHeight($0, in: list) }
    }

    /// Measures the rows in the whole list area, covered ones too, so that the frame that follows finds their
    /// heights cached; returns them. They are the rows that load and that pages are asked for: a row under a
    /// cover is loaded, and shows at once when the cover goes.
    mutating func measureAreaRows(_ viewport: ListViewport, in list: ListState) -> Range<Int> {
        if let grid { return grid.visibleRows(viewport, height: listHeight, in: list) }
        return viewport.visibleRows(count: list.displayCount, height: listHeight) { measure($0, in: list) }
    }

    /// The rows in the whole list area, covered ones too (`measureAreaRows`), measuring nothing.
    func areaRows(_ viewport: ListViewport, in list: ListState) -> Range<Int> {
        if let grid { return grid.visibleRows(viewport, height: listHeight, in: list) }
        return viewport.visibleRows(count: list.displayCount, height: listHeight) { rowHeight($0, in: list) }
    }

    /// The rows on screen, each with the line of the list area it starts on; in the grid, its cells.
    func placedRows(_ viewport: ListViewport, in list: ListState) -> [FrameModel.Placed] {
        if let grid { return grid.placedCells(viewport, height: openHeight, in: list) }
        var y = 0
        return visibleRows(viewport, in: list).map { display in
            defer { y += rowHeight(display, in: list) }
            return FrameModel.Placed(row: display, x: 0, y: y)
        }
    }

    /// The display row under a point of the list area (a click), or nil below the last row or the list, or
    /// beside the last cell of the grid.
    func row(atLine line: Int, column: Int, _ viewport: ListViewport, in list: ListState) -> Int? {
        if let grid { return grid.row(atLine: line, column: column, viewport, height: openHeight, in: list) }
        guard line < openHeight else { return nil }
        return viewport.row(atLine: line, count: list.displayCount) { rowHeight($0, in: list) }
    }
}
