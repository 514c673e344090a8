import Cells
import Foundation
import Items

/// The model of the screen: the loaded rows, the selection and scroll position, the filter, the pool of row slots,
/// the detail pane and the help overlay. It composes each frame into a cell buffer and knows nothing of curses.
///
/// Everything runs on the main actor. Results that arrive later (pages, thumbnails) change the state and call
/// `onChange`, after which the app draws a new frame.
@MainActor
public final class TableController {
    public struct Configuration: Sendable {
        public var thumbnail: CellSize
        public var theme: Theme
        /// Extra slots beyond the rows on screen.
        public var slotMargin: Int
        /// Use each item's small image everywhere, the detail pane included.
        public var lowData: Bool
        /// Warm the thumbnails of the next screen in the scroll direction and of the previous one.
        public var prefetch: Bool
        public init(thumbnail: CellSize = CellSize(columns: 12, rows: 5), theme: Theme = .color,
                    slotMargin: Int = 4, lowData: Bool = false, prefetch: Bool = true) {
            self.thumbnail = thumbnail
            self.theme = theme
            self.slotMargin = slotMargin
            self.lowData = lowData
            self.prefetch = prefetch
        }
    }

    /// Where the list stands with its source.
    public enum ListStatus: Sendable, Equatable {
        /// A page is being loaded.
        case loading
        /// Idle, with more pages to load.
        case more(PageCursor)
        /// A page failed; `retry` loads it again.
        case failed(message: String, cursor: PageCursor)
        /// Every page is loaded.
        case end
    }

    public let source: any ItemSource
    public let configuration: Configuration
    let loader: any ThumbnailLoading
    public let pool: SlotPool

    public private(set) var items: [Item] = []
    public private(set) var listStatus: ListStatus
    public private(set) var pagesLoaded = 0
    /// What the user typed after `/`; rows are those whose title contains it (ignoring case).
    public private(set) var filter = ""
    /// Whether keys go to the filter line.
    public private(set) var isEditingFilter = false
    var filtered: [Int]?
    public var viewport = ListViewport()
    public private(set) var size: (columns: Int, rows: Int) = (80, 24)
    public private(set) var layout: RowLayout
    private var heightCache: [Int: Int] = [:]
    public internal(set) var detail: DetailPane?
    /// The pane on the row of a failed page (Enter on it), with the whole reason.
    public internal(set) var pageFailure: PageFailurePane?
    public private(set) var showingHelp = false
    /// Where the help stands when it is taller than the screen.
    public internal(set) var helpScroll = TextScroll()
    /// A one-line note for the status line (the result of the last action), cleared by the next key.
    public internal(set) var status: String?
    /// What the source left out or repaired on the pages loaded so far (links refused, items past a limit, bad
    /// UTF-8), latest last; the latest page's are shown in the status line when it arrives.
    public private(set) var pageNotes: [String] = []
    /// Whether the overlay of slots and counters (`s`) is shown.
    public internal(set) var showingReuseOverlay = false
    /// Counters the app adds to the overlay (the pipeline's), read each time it is drawn.
    public var extraCounters: @MainActor () -> [(name: String, value: Int)] = { [] }
    /// The batch prefetch under way or just finished, shown as a progress bar.
    public var batchProgress: BatchProgress?
    var batchTask: Task<Void, Never>?
    var batchGeneration = 0
    /// The spinner's frame, advanced by the app's timer while something loads.
    public private(set) var tick = 0

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
    /// Called when something changed that should be drawn.
    public var onChange: @MainActor () -> Void = {}
    private var pageTask: Task<Void, Never>?
    /// The rows (and loaded count) the last prefetch was computed for.
    private var prefetchedAround: (rows: Range<Int>, loaded: Int)?

    public init(source: any ItemSource, loader: any ThumbnailLoading, configuration: Configuration = Configuration(),
                counters: SlotCounters = SlotCounters()) {
        self.source = source
        self.loader = loader
        self.configuration = configuration
        self.pool = SlotPool(margin: configuration.slotMargin, counters: counters)
        self.layout = RowLayout(width: 80, thumbnail: configuration.thumbnail)
        self.listStatus = .more(source.firstPage)
    }

    // MARK: Geometry

    /// Lines of the list area: the screen less the header, footer and status lines.
    public var listHeight: Int {
        size.rows >= 4 ? size.rows - 3 : max(1, size.rows - 1)
    }

    /// Sets the screen size, re-laying rows out and keeping the selected row selected.
    public func resize(columns: Int, rows: Int) {
        guard columns != size.columns || rows != size.rows else { return }
        size = (max(1, columns), max(1, rows))
        if layout.width != size.columns {
            layout = RowLayout(width: size.columns, thumbnail: configuration.thumbnail)
            heightCache.removeAll()
        }
        viewport.reveal(count: displayCount, height: listHeight, rowHeight: rowHeight)
        detail?.resized(in: self)
    }

    /// Rows shown: the matching items plus, at the end, a status row while loading, after a failure, or at the end.
    public var displayCount: Int { itemCount + (hasStatusRow ? 1 : 0) }

    /// Items shown (all loaded items, or those matching the filter).
    public var itemCount: Int { filtered?.count ?? items.count }

    var hasStatusRow: Bool {
        if case .more = listStatus { return false }
        return true
    }

    /// The index in `items` of a display row, or nil for the status row.
    public func itemIndex(forRow row: Int) -> Int? {
        guard row >= 0, row < itemCount else { return nil }
        return filtered?[row] ?? row
    }

    /// The height of a display row; cached per width, computed only for rows asked about.
    public func rowHeight(_ row: Int) -> Int {
        guard let index = itemIndex(forRow: row) else { return layout.statusRowHeight }
        if let h = heightCache[index] { return h }
        let h = layout.height(for: items[index])
        heightCache[index] = h
        return h
    }

    /// The display rows on screen now.
    public var visibleRows: Range<Int> {
        viewport.visibleRows(count: displayCount, height: listHeight, rowHeight: rowHeight)
    }

    /// The selected item, if the selection is on an item row.
    public var selectedItem: (index: Int, item: Item)? {
        itemIndex(forRow: viewport.selection).map { ($0, items[$0]) }
    }

    // MARK: Moving

    public func move(by delta: Int) {
        viewport.move(by: delta, count: displayCount, height: listHeight, rowHeight: rowHeight)
        changed()
    }

    public func page(by fraction: Double) {
        viewport.page(by: fraction, count: displayCount, height: listHeight, rowHeight: rowHeight)
        changed()
    }

    public func scroll(by rows: Int) {
        viewport.scroll(by: rows, count: displayCount, height: listHeight, rowHeight: rowHeight)
        changed()
    }

    public func goHome() {
        viewport.home()
        changed()
    }

    public func goEnd() {
        viewport.end(count: displayCount, height: listHeight, rowHeight: rowHeight)
        changed()
    }

    /// Selects the row under a screen line (a click). Returns whether a row was hit.
    @discardableResult
    public func select(screenLine line: Int) -> Bool {
        guard let row = viewport.row(atLine: line - 1, count: displayCount, rowHeight: rowHeight),
              line - 1 < listHeight else { return false }
        viewport.selection = row
        viewport.reveal(count: displayCount, height: listHeight, rowHeight: rowHeight)
        changed()
        return true
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
        filter = text
        prefetchedAround = nil
        if text.isEmpty {
            filtered = nil
        } else {
            filtered = items.indices.filter { items[$0].title.localizedCaseInsensitiveContains(text) }
        }
        let row = selected.flatMap { index in filtered.map { $0.firstIndex(of: index) } ?? index }
        viewport = ListViewport(selection: row ?? 0, top: 0)
        viewport.reveal(count: displayCount, height: listHeight, rowHeight: rowHeight)
        changed()
    }

    // MARK: Help

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

    // MARK: Thumbnails

    /// Loads the selected row's thumbnail again (the `r` key), or retries a failed page when the status row is selected.
    public func retrySelected() {
        if let (index, item) = selectedItem {
            if item.rowImageURL == nil {
                refreshImage(of: index)
                return
            }
            guard let slot = pool.slot(forItem: index), let size = layout.thumbnail else { return }
            slot.reload(size: size, loader: loader, counters: pool.counters, onChange: { [weak self] in self?.changed() })
            changed()
        } else if case .failed = listStatus {
            retryPage()
        }
    }

    /// Asks the source to look a row's picture up again (a row without an image, whose lookup failed). When the
    /// item comes back changed, its row is laid out and bound anew.
    func refreshImage(of index: Int) {
        let item = items[index], source = self.source
        status = "looking the picture up again…"
        changed()
        Task { [weak self] in
            let refreshed = await source.refreshImage(of: item)
            guard let self, index < self.items.count, self.items[index].id == item.id else { return }
            if let refreshed, refreshed != item {
                self.items[index] = refreshed
                self.heightCache[index] = nil
                self.pool.unbind(item: index)
                self.status = refreshed.rowImageURL == nil ? "still no picture: see the detail pane" : nil
            } else {
                self.status = refreshed == nil ? "this row has no image to retry" : "still no picture: see the detail pane"
            }
            self.changed()
        }
    }

    /// Whether something on screen is loading, so the spinner timer should run.
    public var isAnimating: Bool {
        if case .loading = listStatus, hasStatusRow { return true }
        if detail?.image.isLoading == true { return true }
        return pool.isLoading(anyOf: visibleRows.compactMap(itemIndex(forRow:)))
    }

    /// Brings the loads in line with the screen: binds row slots to the rows on screen (starting and cancelling
    /// their thumbnail loads), prefetches around them, and asks for the next page when the viewport is within one
    /// screen of the last loaded row. The app's loop runs it before it composes each frame; composing starts nothing.
    public func update() {
        let visible = visibleRows
        if let size = layout.thumbnail {
            let rows = visible.compactMap { row in itemIndex(forRow: row).map { ($0, items[$0]) } }
            pool.bind(visible: rows, size: size, loader: loader, onChange: { [weak self] in self?.changed() })
            if configuration.prefetch { prefetch(around: visible, size: size) }
        }
        if visible.upperBound + visible.count >= itemCount { loadMoreIfNeeded() }
    }

    /// The display rows to warm: the visible ones (so a prefetch already fetching a row that scrolls into view is
    /// joined, not cancelled), then the next screen in the scroll direction, then the previous one, nearest first.
    func prefetchRows(around visible: Range<Int>, movingUp: Bool) -> [Int] {
        let n = max(1, visible.count)
        let end = min(visible.upperBound, itemCount), start = min(visible.lowerBound, itemCount)
        let below = Array(end..<min(itemCount, end + n))
        let above = Array((max(0, start - n)..<start).reversed())
        let shown = Array(start..<end)
        return shown + (movingUp ? above + below : below + above)
    }

    private func prefetch(around visible: Range<Int>, size: CellSize) {
        if let last = prefetchedAround, last.rows == visible, last.loaded == items.count { return }
        let movingUp = prefetchedAround.map { visible.lowerBound < $0.rows.lowerBound } ?? false
        prefetchedAround = (visible, items.count)
        let urls = prefetchRows(around: visible, movingUp: movingUp).compactMap { row in
            itemIndex(forRow: row).flatMap { items[$0].rowImageURL }
        }
        loader.prefetch(urls, size: size)
    }

    // MARK: Pages

    /// Starts loading the first page (called once by the app).
    public func start() {
        loadMoreIfNeeded()
    }

    func loadMoreIfNeeded() {
        guard case .more(let cursor) = listStatus else { return }
        load(cursor)
    }

    /// Retries the page that failed.
    public func retryPage() {
        guard case .failed(_, let cursor) = listStatus else { return }
        pageFailure = nil
        load(cursor)
    }

    /// A failed page's message as the table shows it: without the full stop that ends it (sources say what failed;
    /// the table says how to retry, once, where the user looks).
    static func failureReason(_ message: String) -> String {
        var text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// What failed: the list itself when no row has loaded, else its next rows.
    static func failureHeading(firstPage: Bool) -> String {
        firstPage ? "Could not load the list" : "Could not load more rows"
    }

    private func load(_ cursor: PageCursor) {
        listStatus = .loading
        changed()
        let source = self.source
        pageTask = Task { [weak self] in
            do {
                let page = try await source.page(at: cursor)
                self?.append(page)
            } catch is CancellationError {
                return
            } catch {
                self?.pageFailed(error, cursor: cursor)
            }
        }
    }

    private func append(_ page: ItemPage) {
        let start = items.count
        items.append(contentsOf: page.items)
        pagesLoaded += 1
        if !filter.isEmpty {
            filtered?.append(contentsOf: (start..<items.count).filter {
                items[$0].title.localizedCaseInsensitiveContains(filter)
            })
        }
        listStatus = page.next.map { .more($0) } ?? .end
        if !page.notes.isEmpty {
            pageNotes = Array((pageNotes + page.notes).suffix(Self.keptNotes))
            status = page.notes.joined(separator: " · ")
        }
        changed()
    }

    /// The most page notes kept.
    static let keptNotes = 50

    private func pageFailed(_ error: any Error, cursor: PageCursor) {
        listStatus = .failed(message: String(describing: error), cursor: cursor)
        changed()
    }

    /// Stops every load: page, thumbnails, detail image.
    public func cancelAll() {
        pageTask?.cancel()
        batchTask?.cancel()
        if let size = layout.thumbnail { loader.prefetch([], size: size) }
        pool.unbindAll()
        detail?.close()
    }

    func changed() {
        onChange()
    }
}
