import Cells
import FoundationEssentials
import Items

/// The table the app talks to: keys call its methods, `update()` brings the loads in line with the screen, and
/// `frame()` composes the screen into a cell buffer. It knows nothing of curses.
///
/// It holds the parts that do the work: the list (`ListState`, paged in by a `PageLoader`), where rows go
/// (`ListLayout`, `ListViewport`), the thumbnails (`ThumbnailBinder`, `BatchPrefetch`), the panes and overlays, and
/// the views that draw them. Everything runs on the main actor. Results that arrive later (pages, thumbnails) change
/// the state and call the change handler (`onChange`), after which the app draws a new frame.
@MainActor
public final class TableController {
    public typealias ListStatus = ListState.Status

    public let source: any ItemSource
    public let configuration: Configuration
    /// The loaded rows, the filter and where paging stands.
    public private(set) var list: ListState
    /// The selected row and the row at the top.
    public private(set) var viewport = ListViewport()
    /// Where rows go on the screen.
    public private(set) var listLayout: ListLayout
    let binder: ThumbnailBinder
    /// Whether keys go to the filter line.
    public private(set) var isEditingFilter = false
    public private(set) var detail: DetailPane?
    /// The pane on the row of a failed page (Enter on it), with the whole reason.
    public private(set) var pageFailure: PageFailurePane?
    public private(set) var showingHelp = false
    /// Where the help stands when it is taller than the screen.
    public private(set) var helpScroll = TextScroll()
    /// A one-line note for the status line (the result of the last action), cleared by the next key.
    public private(set) var status: String?
    /// Whether the overlay of slots and counters (`s`) is shown.
    public private(set) var showingReuseOverlay = false
    /// Counters the app adds to the overlay (the pipeline's), read each time it is drawn.
    private(set) var extraCounters: @MainActor () -> [(name: String, value: Int)] = { [] }
    /// The spinner's frame, advanced by the app's timer while something loads.
    public private(set) var tick = 0
    private let pages: PageLoader
    /// Follows the source's count between pages while it is still counting (see `watchCount`).
    private var countWatch: Task<Void, Never>?
    let batch: BatchPrefetch
    private let changes = ChangeSignal()

    public init(source: any ItemSource, loader: any ThumbnailLoading, configuration: Configuration = Configuration(),
                counters: SlotCounters = SlotCounters()) {
        self.source = source
        self.configuration = configuration
        self.list = ListState(firstPage: source.firstPage, filterReadLimit: configuration.filterReadLimit,
                              ceilings: configuration.listCeilings)
        self.listLayout = ListLayout(sizing: configuration.sizing, mode: configuration.layout)
        self.pages = PageLoader(source: source, clock: configuration.pagingClock)
        self.binder = ThumbnailBinder(loader: loader, margin: configuration.slotMargin,
                                      prefetches: configuration.prefetch, counters: counters, changed: changes,
                                      policy: configuration.slotBinding, clock: configuration.clock)
        self.batch = BatchPrefetch(loader: loader, changed: changes)
    }

    // MARK: Wiring

    /// Says what to do when something changed that should be drawn (the app schedules a frame).
    public func onChange(_ handler: @escaping @MainActor () -> Void) {
        changes.handler = handler
    }

    /// Adds counters to the overlay and the stats (the pipeline's), read each time they are shown.
    public func showCounters(_ counters: @escaping @MainActor () -> [(name: String, value: Int)]) {
        extraCounters = counters
    }

    /// Asks for a frame although the table's own state did not change (Ctrl-L; a pane changed through its methods).
    public func redraw() {
        changed()
    }

    private func changed() {
        changes.send()
    }

    // MARK: Geometry

    /// The height of a display row: cached when `update()` or a key measured it, else computed and not stored.
    public func rowHeight(_ row: Int) -> Int {
        listLayout.rowHeight(row, in: list)
    }

    /// Runs a viewport operation in the layout's own steps: rows in the list, lines of cells in the grid (see
    /// `ListLayout.apply`).
    private func arrange(_ operation: (inout ListViewport, _ count: Int, _ height: Int, _ rowHeight: (Int) -> Int)
                            -> Void) {
        listLayout.apply(operation, to: &viewport, in: list)
    }

    private func reveal() {
        arrange { $0.reveal(count: $1, height: $2, rowHeight: $3) }
    }

    /// The display rows on screen now.
    public var visibleRows: Range<Int> {
        listLayout.visibleRows(viewport, in: list)
    }

    /// Sets the screen size, re-laying rows out (the thumbnails follow the screen) and keeping the selected row
    /// selected and on screen. A thumbnail size that does not fit says so in the status line.
    public func resize(columns: Int, rows: Int) {
        let noteBefore = listLayout.thumbnailNote
        if columns != size.columns || rows != size.rows {
            listLayout.resize(columns: columns, rows: rows)
            reveal()
        }
        if let note = listLayout.thumbnailNote {
            status = note
        } else if status == noteBefore {
            status = nil
        }
    }

    /// Makes the thumbnails `steps` zoom steps bigger (negative: smaller), within what the screen shows, keeping
    /// the selected row selected and on screen; the next `update()` loads them at the new size. A bound reached is
    /// said in the status line. The one entry point for `+` and `-`: in the grid, a step is one cell fewer across
    /// (bigger pictures) or more.
    public func zoom(by steps: Int) {
        if listLayout.grid != nil { return changeGridColumns(by: -steps) }
        status = listLayout.zoom(by: steps)
        reveal()
        changed()
    }

    // MARK: Moving

    /// Moves the selection by `delta` rows (in the grid, lines of cells, keeping the column).
    public func move(by delta: Int) {
        arrange { $0.move(by: delta, count: $1, height: $2, rowHeight: $3) }
        changed()
    }

    /// Moves the selection by `delta` items in reading order (left and right in the grid).
    public func moveAcross(by delta: Int) {
        guard displayCount > 0 else { return }
        viewport.selection = min(max(0, viewport.selection + delta), displayCount - 1)
        reveal()
        changed()
    }

    public func page(by fraction: Double) {
        arrange { $0.page(by: fraction, count: $1, height: $2, rowHeight: $3) }
        changed()
    }

    public func scroll(by rows: Int) {
        arrange { $0.scroll(by: rows, count: $1, height: $2, rowHeight: $3) }
        changed()
    }

    public func goHome() {
        viewport.home()
        changed()
    }

    /// Selects the last item (in the grid, the last cell, not the last line's cell in the selected column), and
    /// keeps selecting the last item as further pages arrive until the list ends (`isFollowingEnd`; any key stops
    /// it). The row below it (the end of the list, a page loading) is shown but not selected: Enter there does
    /// nothing. A status row a key acts on (a failed page, paging stopped, a filter paused) is selected.
    public func goEnd() {
        selectLastRow()
        switch list.status {
        case .more, .loading: isFollowingEnd = true
        case .end, .failed, .stopped: isFollowingEnd = false
        }
        changed()
    }

    /// Whether `goEnd` is following the end of the list as pages arrive.
    public private(set) var isFollowingEnd = false

    /// Stops following the end of the list (a key was pressed); the selection stays where it is.
    public func stopFollowingEnd() {
        guard isFollowingEnd else { return }
        isFollowingEnd = false
        changed()
    }

    private func selectLastRow() {
        // The screen ends with the last row, status row included, so the end shows below the last item.
        arrange { $0.end(count: $1, height: $2, rowHeight: $3) }
        viewport.selection = list.statusRowActs || itemCount == 0 ? max(0, displayCount - 1) : itemCount - 1
        reveal()
    }

    /// Selects a row and shows it at the top (a benchmark's starting point).
    public func jump(toRow row: Int) {
        viewport = ListViewport(selection: row, top: row)
        viewport.clamp(count: displayCount)
        changed()
    }

    /// Selects the row (in the grid, the cell) under a point of the screen (a click). Returns whether one was hit.
    @discardableResult
    public func select(screenLine line: Int, column: Int = 0) -> Bool {
        guard let row = listLayout.row(atLine: line - listLayout.listTop, column: column, viewport, in: list)
        else { return false }
        viewport.selection = row
        reveal()
        changed()
        return true
    }

    // MARK: List or grid

    /// Switches between the list and the grid, keeping the selected item selected and on screen.
    public func toggleLayout() {
        setLayout(listLayout.mode == .list ? .grid : .list)
    }

    public func setLayout(_ mode: LayoutMode) {
        guard mode != listLayout.mode else { return }
        listLayout.setMode(mode)
        reveal()
        changed()
    }

    /// Changes the grid's cells across by `delta` (`+` fewer and bigger, `-` more and smaller), within what the
    /// width holds; says so when it cannot go further.
    public func changeGridColumns(by delta: Int) {
        guard let grid = listLayout.grid else { return }
        let wanted = grid.columnCount + delta
        let widest = GridLayout.maxColumns(width: size.columns)
        listLayout.setGridColumns(wanted)
        if wanted < 1 { status = "one picture across is the biggest" }
        if wanted > widest { status = "\(widest) pictures across is the most this width holds" }
        reveal()
        changed()
    }

    // MARK: Filter

    public func beginFilter() {
        isEditingFilter = true
        changed()
    }

    public func editFilter(appending character: Character) {
        setFilter(filter + String(character))
    }

    public func editFilterDeleteBackward() {
        guard !filter.isEmpty else { return }
        setFilter(String(filter.dropLast()))
    }

    /// Keeps the filter and returns keys to the list.
    public func endFilterEditing() {
        isEditingFilter = false
        changed()
    }

    /// Clears the filter and shows every row again, keeping the selected item selected.
    public func clearFilter() {
        isEditingFilter = false
        setFilter("")
    }

    private func setFilter(_ text: String) {
        let selected = selectedItem?.index
        list.setFilter(text)
        binder.rowsChanged()
        viewport = ListViewport(selection: selected.flatMap { list.row(ofItem: $0) } ?? 0, top: 0)
        reveal()
        changed()
    }

    // MARK: Notes, help, overlays

    /// Shows a one-line note in the status line until the next key (from outside the table: the disk cache's state).
    public func say(_ note: String) {
        status = note
        changed()
    }

    /// Clears the status line's note (a key was pressed).
    public func clearNote() {
        status = nil
    }

    /// Moves the spinner on one frame (the app's timer, while something on screen loads).
    public func advanceSpinner() {
        tick += 1
    }

    public func toggleHelp() {
        showingHelp.toggle()
        if showingHelp { helpScroll = TextScroll() }
        changed()
    }

    /// Scrolls the help by `lines` (negative: up), when it is taller than the screen.
    public func scrollHelp(by lines: Int) {
        helpScroll.scroll(by: lines)
        changed()
    }

    /// Shows or hides the overlay of slots and counters.
    public func toggleReuseOverlay() {
        showingReuseOverlay.toggle()
        changed()
    }

    // MARK: Panes

    /// Opens the detail pane on the selected item, or the failure's pane when the row of a failed page is selected.
    public func openSelected() {
        guard let (index, item) = selectedItem else {
            if list.isPausedByFilter {
                list.readMoreDespiteFilter()
                changed()
            } else if case .stopped = list.status {
                resumePaging()
            } else if case .failed(let message, _) = list.status {
                pageFailure = PageFailurePane(reason: PageFailurePane.reason(message), firstPage: items.isEmpty,
                                              loadedRows: items.count)
                changed()
            }
            return
        }
        binder.cancelPaneImage()
        detail = DetailPane(itemIndex: index, item: item, rowThumbnail: pool.slot(forItem: index)?.thumbnail ?? .none,
                            lowData: configuration.lowData)
        bindPaneImage()
        changed()
    }

    /// Shows the item `delta` rows on (negative: back) in the detail pane without closing it (`n`/`p`); the list's
    /// selection follows, so paging loads more near the end as it does in the list. At either end the status line
    /// says why nothing moved.
    public func openAdjacent(by delta: Int) {
        guard detail != nil else { return }
        let target = viewport.selection + delta
        guard target >= 0, target < itemCount else {
            if target < 0 {
                status = "this is the first item"
            } else {
                switch list.status {
                case .loading, .more: status = list.isPausedByFilter
                    ? "no further match in \(list.readWithoutMatch) rows read; Esc, then Enter on the last row reads more"
                    : "loading more items…"
                case .failed: status = "the next page failed to load: Esc, then Enter on the last row says why"
                case .end: status = "this is the last item"
                case .stopped(let stop): status = "this is the last item: \(stop.note)"
                }
            }
            changed()
            return
        }
        viewport.selection = target
        reveal()
        openSelected()
    }

    /// Closes the detail pane (or the failure's pane), back to the list as it was.
    public func closeDetail() {
        binder.cancelPaneImage()
        detail = nil
        pageFailure = nil
        changed()
    }

    /// Loads the detail pane's image again (the `r` key in the pane): from the caches if it is there, else fetched
    /// anew; the full-size one again after it failed.
    public func reloadDetailImage() {
        guard let detail else { return }
        detail.prepareReload()
        if let box = detail.imageBox { binder.loadImage(of: detail, box: box) }
        changed()
    }

    /// Deletes the detail pane's image (and the row's thumbnail) from the memory and disk caches (the `d` key in the
    /// pane).
    public func removeDetailImageFromCache() {
        guard let detail else { return }
        detail.removedFromCache(count: binder.removeFromCache(imagesOf: detail.item))
        changed()
    }

    /// Deletes the selected row's images (full size and thumbnail) from the memory and disk caches (the `d` key in
    /// the list), saying so in the status line; the picture shown stays until `r` fetches it again.
    public func removeSelectedImageFromCache() {
        guard let (_, item) = selectedItem else {
            status = "nothing removed: no item is selected"
            return changed()
        }
        status = binder.removeFromCache(imagesOf: item) == 0
            ? "nothing removed: this item has no image"
            : "removed the image from the memory and disk caches; r fetches it again"
        changed()
    }

    /// Starts (or restarts, after a resize) the detail pane's image load at the size the pane allows.
    private func bindPaneImage() {
        guard let detail, let box = detail.wantedImageBox(width: size.columns, height: listHeight),
              box != detail.imageBox else { return }
        binder.loadImage(of: detail, box: box)
    }

    // MARK: Updating

    /// Brings the state in line with the screen before a frame is composed, so that composing only reads: binds row
    /// slots to the rows on screen (starting and cancelling their thumbnail loads, caching their heights),
    /// prefetches around them, asks for the next page when the viewport is within one screen of the last loaded
    /// row, loads the detail pane's image at the pane's size, and records how much of each scrolled text shows, for
    /// the keys that scroll it. The app's loop runs it before it composes each frame.
    public func update() {
        let visible = listLayout.measureVisibleRows(viewport, in: list)
        if let size = listLayout.thumbnailBox { binder.update(visible: visible, list: list, size: size) }
        if visible.upperBound + visible.count >= itemCount { loadMoreIfNeeded() }
        bindPaneImage()
        fitScrolledTexts()
    }

    /// Records in each open text's `TextScroll` how much of it shows at this size, laid out by the view that
    /// draws it.
    private func fitScrolledTexts() {
        let (columns, rows) = size
        if showingHelp, let box = HelpView.box(columns: columns, rows: rows) {
            helpScroll.fit(lineCount: box.lines.count, height: box.rows)
        }
        if let detail {
            detail.textScroll.fit(DetailPaneView(pane: detail, theme: configuration.theme, tick: tick)
                .scrolledText(width: columns, height: listHeight))
        }
        if let pageFailure {
            pageFailure.textScroll.fit(PageFailurePaneView(pane: pageFailure, theme: configuration.theme)
                .scrolledText(width: columns, height: listHeight))
        }
    }

    // MARK: Thumbnails

    /// Loads the selected row's thumbnail again (the `r` key), or retries a failed page when the status row is selected.
    public func retrySelected() {
        if let (index, item) = selectedItem {
            if item.rowImageURL == nil {
                refreshImage(of: index)
                return
            }
            guard let size = listLayout.thumbnailBox, binder.reload(item: index, size: size) else { return }
            changed()
        } else if case .failed = list.status {
            retryPage()
        } else if case .stopped = list.status {
            resumePaging()
        }
    }

    /// Asks the source to look a row's picture up again (a row without an image, whose lookup failed). When the
    /// item comes back changed, its row is laid out and bound anew.
    private func refreshImage(of index: Int) {
        let item = items[index], source = self.source
        status = "looking the picture up again…"
        changed()
        Task { [weak self] in
            let refreshed = await source.refreshImage(of: item)
            guard let self, index < self.items.count, self.items[index].id == item.id else { return }
            if let refreshed, refreshed != item {
                self.list.replace(item: index, with: refreshed)
                self.listLayout.forgetHeight(ofItem: index)
                self.binder.forget(item: index)
                self.status = refreshed.rowImageURL == nil ? "still no picture: see the detail pane" : nil
            } else {
                self.status = refreshed == nil ? "this row has no image to retry" : "still no picture: see the detail pane"
            }
            self.changed()
        }
    }

    /// Fetches the thumbnail of every loaded row into the caches (the `P` key), showing a progress bar with counts.
    /// The rows on screen keep priority over it. `cancelBatchPrefetch` (Esc) stops it.
    public func startBatchPrefetch() {
        guard !batch.isRunning, let size = listLayout.thumbnailBox else { return }
        var seen = Set<URL>()
        batch.start(items.compactMap(\.rowImageURL).filter { seen.insert($0).inserted }, size: size)
    }

    /// Stops the batch prefetch; what it fetched stays cached.
    public func cancelBatchPrefetch() {
        batch.cancel()
    }

    /// Hides a finished batch's progress bar.
    public func dismissBatchProgress() {
        batch.dismiss()
    }

    // MARK: Pages

    /// Starts loading the first page (called once by the app).
    public func start() {
        loadMoreIfNeeded()
    }

    private func loadMoreIfNeeded() {
        guard case .more(let cursor) = list.status, !list.isPausedByFilter else { return }
        load(cursor)
    }

    /// Retries the page that failed.
    public func retryPage() {
        guard case .failed(_, let cursor) = list.status else { return }
        pageFailure = nil
        load(cursor)
    }

    /// Asks the source again after a run of empty pages stopped paging (`r` or Enter on the last row); a stop that
    /// ends the list (a loop, a ceiling) says so again instead.
    public func resumePaging() {
        guard case .stopped(let stop) = list.status else { return }
        guard let cursor = list.resumePaging() else {
            status = stop.note
            changed()
            return
        }
        load(cursor)
    }

    /// Whether the next page waits for its turn: the table asks for at most `PagePace.perSecond` pages a second on
    /// its own, after a first `PagePace.burst`.
    public var isPacingPages: Bool {
        pages.waitingUntil != nil
    }

    private func load(_ cursor: PageCursor) {
        list.status = .loading
        changed()
        pages.load(cursor) { [weak self] result in self?.pageArrived(result, cursor: cursor) }
    }

    private func pageArrived(_ result: Result<ItemPage, any Error>, cursor: PageCursor) {
        switch result {
        case .success(let page):
            if let notes = list.append(page, from: cursor) { status = notes }
            if page.stillCounting { watchCount() }
        case .failure(let error):
            list.status = .failed(message: String(describing: error), cursor: cursor)
        }
        if isFollowingEnd {
            selectLastRow()
            // The next page is asked for by `update()`, as for any viewport at the last loaded row.
            switch list.status {
            case .more, .loading: break
            case .end, .failed, .stopped: isFollowingEnd = false
            }
        }
        changed()
    }

    /// How often the header looks at a count the source is still making.
    static let countInterval: Duration = .milliseconds(250)

    /// While the source is still counting (a folder walk going on), reads its count every `countInterval` and
    /// redraws the header when it moved, until the count is final: the header's "found so far" keeps up with the
    /// walk, not only when a page arrives.
    private func watchCount() {
        guard countWatch == nil else { return }
        countWatch = Task { [weak self] in
            while (try? await Task.sleep(for: Self.countInterval)) != nil {
                guard let self, let count = self.source.countSoFar() else { return }
                if count.total != self.list.total || count.stillCounting != self.list.totalStillCounting {
                    self.list.recount(count)
                    self.changed()
                }
                if !count.stillCounting { break }
            }
            self?.countWatch = nil
        }
    }

    /// Stops every load: page, thumbnails, detail image.
    public func cancelAll() {
        countWatch?.cancel()
        pages.cancel()
        batch.stop()
        binder.cancelAll(size: listLayout.thumbnailBox)
    }
}
