import Cells
import FoundationEssentials
import Items

/// What the app, the key bindings and the tests read of the table: each answer is read from the part that holds it.
extension TableController {
    /// The loaded rows, the filter and where paging stands.
    public var list: ListState { paging.list }
    /// The selected row and the row at the top.
    public var viewport: ListViewport { navigation.viewport }
    /// Where rows go on the screen.
    public var listLayout: ListLayout { navigation.layout }
    /// The detail pane, when it shows (under the help, if that shows too).
    public var detail: DetailPane? { screen.detail }
    /// The pane on the row of a failed page, when it shows (under the help, if that shows too).
    public var pageFailure: PageFailurePane? { screen.pageFailure }
    /// Whether the help shows.
    public var showingHelp: Bool { screen.isHelp }
    /// Whether keys go to the filter line.
    public var isEditingFilter: Bool { screen.isFilter }
    public var items: [Item] { list.items }
    public var listStatus: ListStatus { list.status }
    public var pagesLoaded: Int { list.pagesLoaded }
    /// What the user typed after `/`; rows are those whose title contains it (ignoring case).
    public var filter: String { list.filter }
    /// What the source left out or repaired on the pages loaded so far, latest last; the latest page's are shown in
    /// the status line when it arrives.
    public var pageNotes: [String] { list.pageNotes }
    /// Rows shown: the matching items plus, at the end, a status row while loading, after a failure, or at the end.
    public var displayCount: Int { list.displayCount }
    /// Items shown (all loaded items, or those matching the filter).
    public var itemCount: Int { list.itemCount }
    /// The slots the rows on screen are bound to.
    public var pool: SlotPool { binder.pool }
    /// The batch prefetch under way or just finished, shown as a progress bar.
    public var batchProgress: BatchProgress? { batch.progress }
    /// Whether a batch prefetch is under way.
    public var isBatchPrefetching: Bool { batch.isRunning }

    /// The index in `items` of a display row, or nil for the status row.
    public func itemIndex(forRow row: Int) -> Int? {
        list.itemIndex(forRow: row)
    }

    /// The selected item, if the selection is on an item row.
    /// The rows on screen that show a picture, and how many of those show a picture loaded for another row
    /// (`RowSlot.paintedItem`): what `demo --compare`'s headers and the autoplay's summary count.
    public var picturesOnScreen: (shown: Int, wrong: Int) {
        let painted = frameModel.areaRows.compactMap(itemIndex(forRow:)).compactMap { item in
            pool.slot(forItem: item).flatMap { slot in slot.paintedItem.map { (item, $0) } }
        }
        return (painted.count, painted.count { $0.0 != $0.1 })
    }

    public var selectedItem: (index: Int, item: Item)? {
        list.itemIndex(forRow: viewport.selection).map { ($0, list.items[$0]) }
    }

    /// The image `w` saves from the list: the selected row's full-size image, the small one in low-data mode (the
    /// one the detail pane would show).
    public var selectedImageURL: URL? {
        guard let (_, item) = selectedItem else { return nil }
        return configuration.lowData ? item.thumbnailURL ?? item.imageURL : item.imageURL ?? item.thumbnailURL
    }

    /// The selected row's thumbnail as drawn (what `W` saves from the list), or `.none` when no row is selected or
    /// its slot holds none.
    public var selectedThumbnail: ThumbnailState {
        guard let (index, _) = selectedItem else { return .none }
        return pool.slot(forItem: index)?.thumbnail ?? .none
    }

    /// The counters the overlay and the stats file show: the slots' own, then those the app adds (the pipeline's).
    public var overlayCounters: [(name: String, value: Int)] {
        slotCounters.named + extraCounters()
    }

    /// Counts pictures drawn in pixels where the frame wants another (the App's audit after each frame) with the
    /// slots' paints into the wrong row: `wrong_paints`, which must stay 0.
    public func countWrongPaints(_ pictures: Int) {
        pool.counters.wrongPaints += pictures
    }

    /// The slots' counters now.
    public var slotCounters: SlotCounters.Snapshot {
        pool.counters.snapshot(slots: pool.slots.count)
    }

    /// The reuse overlay's lines with room for all, at the screen's width: the title, `wrong_paints`, the legend,
    /// the counters by group, the slots, and the latest events.
    public func reuseOverlayLines() -> [String] {
        reuseOverlay.lines(width: size.columns)
    }

    /// The reuse overlay as it stands.
    var reuseOverlay: ReuseOverlayView {
        ReuseOverlayView(slots: pool.slots, counters: overlayCounters, log: pool.log.entries, theme: configuration.theme)
    }

    /// Whether something on screen is loading, so the spinner timer should run.
    public var isAnimating: Bool {
        if case .loading = list.status, list.hasStatusRow { return true }
        if detail?.image.isLoading == true { return true }
        return pool.isLoading(anyOf: frameModel.areaRows.compactMap(list.itemIndex(forRow:)))
    }

    /// The screen's size.
    public var size: (columns: Int, rows: Int) { navigation.size }
    /// The geometry of one row at this width.
    public var layout: RowLayout { listLayout.row }
    /// The list, the compact list or the grid.
    public var layoutMode: LayoutMode { listLayout.mode }
    /// The grid's geometry, in the grid view.
    public var grid: GridLayout? { listLayout.grid }
    /// The thumbnail's box now: the grid's picture, or the row's thumbnail (nil when the screen is too narrow).
    public var thumbnailBox: CellSize? { listLayout.thumbnailBox }
    /// The screen line the list area starts on.
    public var listTop: Int { listLayout.listTop }
    /// The thumbnails' size now: sized to the screen or given, zoomed, and fitted to the screen (`zoom(by:)`
    /// changes it). A list too narrow for thumbnails shows none (`layout.thumbnail` is then nil).
    public var thumbnailSize: CellSize { listLayout.thumbnail }
    /// Lines of the list area: the screen less the header, footer and status lines.
    public var listHeight: Int { listLayout.listHeight }
}
