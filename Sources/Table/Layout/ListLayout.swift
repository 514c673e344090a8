import Cells

/// Where the list's rows go on the screen: the list area, each row's height (cached for the width when measured),
/// the rows that show and the line each starts on. It is the one place that answers "which rows are where", so a
/// grid view plugs in here.
public struct ListLayout: Sendable, Equatable {
    /// The screen's size.
    public private(set) var columns = 80, rows = 24
    /// The geometry of one row at this width.
    public private(set) var row: RowLayout
    /// How big the thumbnails are: the rule, the zoom, the bounds.
    public private(set) var sizing: ThumbnailSizing
    /// The thumbnail size the sizing asks for on this screen, before it is shrunk to fit.
    public private(set) var wantedThumbnail: CellSize
    private var heightCache: [Int: Int] = [:]

    init(sizing: ThumbnailSizing) {
        self.sizing = sizing
        let size = sizing.size(columns: columns, listHeight: rows - 3)
        self.wantedThumbnail = size.wanted
        self.row = RowLayout(width: columns, thumbnail: size.shown)
    }

    /// The thumbnail size on this screen (shown only when the screen is wide enough, see `row`).
    public var thumbnail: CellSize {
        sizing.size(columns: columns, listHeight: listHeight).shown
    }

    /// What the status line says when the thumbnail size asked for does not fit this screen, or nil.
    public var thumbnailNote: String? {
        ThumbnailSizing.clampNote(wanted: wantedThumbnail, shown: thumbnail, columns: columns, rows: rows)
    }

    /// Takes a new screen size; the thumbnails follow it, and heights are forgotten when the rows change.
    mutating func resize(columns: Int, rows: Int) {
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        relayRows()
    }

    /// Zooms the thumbnails by `steps`; returns the status line's note when a bound stopped it.
    mutating func zoom(by steps: Int) -> String? {
        let limit = sizing.zoom(by: steps, columns: columns, listHeight: listHeight)
        relayRows()
        return limit?.note(at: thumbnail)
    }

    /// Lays rows out anew for the screen and the thumbnail size, forgetting the heights if the rows changed.
    private mutating func relayRows() {
        let size = sizing.size(columns: columns, listHeight: listHeight)
        wantedThumbnail = size.wanted
        let relaid = RowLayout(width: columns, thumbnail: size.shown)
        if relaid != row {
            row = relaid
            heightCache.removeAll()
        }
    }

    /// The screen line the list starts on: below the header when there is room for one.
    public var listTop: Int { rows >= 4 ? 1 : 0 }

    /// Lines of the list area: the screen less the header, footer and status lines.
    public var listHeight: Int { rows >= 4 ? rows - 3 : max(1, rows - 1) }

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
        viewport.visibleRows(count: list.displayCount, height: listHeight) { rowHeight($0, in: list) }
    }

    /// Measures the rows on screen, so that the frame that follows finds their heights cached; returns them.
    mutating func measureVisibleRows(_ viewport: ListViewport, in list: ListState) -> Range<Int> {
        viewport.visibleRows(count: list.displayCount, height: listHeight) { measure($0, in: list) }
    }

    /// The rows on screen, each with the line of the list area it starts on.
    func placedRows(_ viewport: ListViewport, in list: ListState) -> [(row: Int, y: Int)] {
        var y = 0
        return visibleRows(viewport, in: list).map { display in
            defer { y += rowHeight(display, in: list) }
            return (display, y)
        }
    }

    /// The display row under a line of the list area (a click), or nil below the last row or the list.
    func row(atLine line: Int, _ viewport: ListViewport, in list: ListState) -> Int? {
        guard line < listHeight else { return nil }
        return viewport.row(atLine: line, count: list.displayCount) { rowHeight($0, in: list) }
    }
}
