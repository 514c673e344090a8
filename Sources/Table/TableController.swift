import Cells
import FoundationEssentials
import Items

/// The table the app talks to: keys call its methods, `update()` brings the loads in line with the screen, and
/// `frame()` composes the screen into a cell buffer. It knows nothing of curses.
///
/// It delegates to the owners of each concern: what is showing (`Screen`), the pages and the rows they bring
/// (`Paging`), where the user stands and how rows are laid out (`Navigation`), the thumbnails (`ThumbnailBinder`,
/// `BatchPrefetch`) and the detail pane's image (`DetailPaneImage`). Everything runs on the main actor. Results that
/// arrive later (pages, thumbnails) change the state and call the change handler (`onChange`), after which the app
/// draws a new frame.
@MainActor
public final class TableController {
    public typealias ListStatus = ListState.Status

    public var source: any ItemSource { paging.source }
    public let configuration: Configuration
    /// What is showing: the list, the filter being typed, a pane, the help.
    public private(set) var screen: Screen = .list
    /// Where the help stands when it is taller than the screen.
    public private(set) var helpScroll = TextScroll()
    /// A one-line note for the status line (the result of the last action), cleared by the next key.
    public internal(set) var status: String?
    /// Whether the overlay of slots and counters (`s`) is shown over the screen.
    public private(set) var showingReuseOverlay = false
    /// Counters the app adds to the overlay (the pipeline's), read each time it is drawn.
    private(set) var extraCounters: @MainActor () -> [(name: String, value: Int)] = { [] }
    /// The items marked to be picked together (`toggleMark()`), by index in `items`.
    public internal(set) var marks: Set<Int> = []
    /// The spinner's frame, advanced by the app's timer while something loads.
    public private(set) var tick = 0
    let paging: Paging
    var navigation: Navigation
    let binder: ThumbnailBinder
    let batch: BatchPrefetch
    let paneImage: DetailPaneImage
    let changes = ChangeSignal()
    /// What the frame after the last `update()` shows where (see `frameModel`).
    var storedModel: FrameModel?

    public init(source: any ItemSource, loader: any ThumbnailLoading, configuration: Configuration = Configuration(),
                counters: SlotCounters = SlotCounters()) {
        self.configuration = configuration
        self.paging = Paging(source: source, configuration: configuration, changes: changes)
        self.navigation = Navigation(sizing: configuration.sizing, mode: configuration.layout)
        self.binder = ThumbnailBinder(loader: loader, margin: configuration.slotMargin,
                                      prefetches: configuration.prefetch, counters: counters, changed: changes,
                                      policy: configuration.slotBinding, clock: configuration.clock)
        self.batch = BatchPrefetch(loader: loader, changed: changes)
        self.paneImage = DetailPaneImage(binder: binder, lowData: configuration.lowData)
        paging.arrived = { [weak self] notes, followingEnd in
            guard let self else { return }
            if let notes { self.status = notes }
            if followingEnd { self.navigation.selectLastRow(in: self.list) }
        }
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

    func changed() {
        changes.send()
    }

    /// Shows `screen` from now on, and draws it.
    func show(_ screen: Screen) {
        self.screen = screen
        changed()
    }

    // MARK: Geometry

    /// The height of a display row: cached when `update()` or a key measured it, else computed and not stored.
    public func rowHeight(_ row: Int) -> Int {
        listLayout.rowHeight(row, in: list)
    }

    /// The display rows on screen now.
    public var visibleRows: Range<Int> {
        navigation.visibleRows(in: list)
    }

    /// Sets the screen size, re-laying rows out (the thumbnails follow the screen) and keeping the selected row
    /// selected and on screen. A thumbnail size that does not fit says so in the status line.
    public func resize(columns: Int, rows: Int) {
        let noteBefore = listLayout.thumbnailNote
        navigation.resize(columns: columns, rows: rows, in: list)
        if let note = listLayout.thumbnailNote {
            status = note
        } else if status == noteBefore {
            status = nil
        }
    }

    /// Runs a move of the navigation on the list, and draws the result.
    func navigate(_ move: (inout Navigation, ListState) -> Void) {
        move(&navigation, list)
        changed()
    }

    /// Makes the thumbnails `steps` zoom steps bigger (negative: smaller), within what the screen shows, keeping
    /// the selected row selected and on screen; the next `update()` loads them at the new size. A bound reached is
    /// said in the status line. The one entry point for `+` and `-`: in the grid, a step is one cell fewer across
    /// (bigger pictures) or more.
    public func zoom(by steps: Int) {
        // In the list every zoom says where it stands; in the grid only a bound reached is said.
        let inGrid = listLayout.grid != nil
        navigate {
            let note = $0.zoom(by: steps, in: $1)
            if note != nil || !inGrid { status = note }
        }
    }

    /// Changes the grid's cells across by `delta` (`+` fewer and bigger, `-` more and smaller), within what the
    /// width holds; says so when it cannot go further.
    public func changeGridColumns(by delta: Int) {
        guard listLayout.grid != nil else { return }
        navigate { if let note = $0.changeGridColumns(by: delta, in: $1) { status = note } }
    }

    // MARK: Moving

    /// Moves the selection by `delta` rows (in the grid, lines of cells, keeping the column).
    public func move(by delta: Int) { navigate { $0.move(by: delta, in: $1) } }

    /// Moves the selection by `delta` items in reading order (left and right in the grid).
    public func moveAcross(by delta: Int) { navigate { $0.moveAcross(by: delta, in: $1) } }

    public func page(by fraction: Double) { navigate { $0.page(by: fraction, in: $1) } }

    public func scroll(by rows: Int) { navigate { $0.scroll(by: rows, in: $1) } }

    public func goHome() { navigate { navigation, _ in navigation.home() } }

    /// Selects the last item (in the grid, the last cell, not the last line's cell in the selected column), and
    /// keeps selecting the last item as further pages arrive until the list ends (`isFollowingEnd`; any key stops
    /// it). The row below it (the end of the list, a page loading) is shown but not selected: Enter there does
    /// nothing. A status row a key acts on (a failed page, paging stopped, a filter paused) is selected.
    public func goEnd() {
        paging.followEnd()
        navigate { $0.selectLastRow(in: $1) }
    }

    /// Whether `goEnd` is following the end of the list as pages arrive.
    public var isFollowingEnd: Bool { paging.isFollowingEnd }

    /// Stops following the end of the list (a key was pressed); the selection stays where it is.
    public func stopFollowingEnd() {
        if paging.stopFollowingEnd() { changed() }
    }

    /// Selects a row and shows it at the top (a benchmark's starting point).
    public func jump(toRow row: Int) { navigate { $0.jump(toRow: row, in: $1) } }

    /// Selects the row (in the grid, the cell) under a point of the screen (a click). Returns whether one was hit.
    @discardableResult
    public func select(screenLine line: Int, column: Int = 0) -> Bool {
        guard navigation.select(line: line - listLayout.listTop, column: column, in: list) else { return false }
        changed()
        return true
    }

    // MARK: Filter

    public func beginFilter() {
        show(.filter)
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
        if screen.isFilter { screen = .list }
        changed()
    }

    /// Clears the filter and shows every row again, keeping the selected item selected.
    public func clearFilter() {
        if screen.isFilter { screen = .list }
        setFilter("")
    }

    private func setFilter(_ text: String) {
        let selected = selectedItem?.index
        paging.setFilter(text)
        binder.rowsChanged()
        let row = selected.flatMap { list.row(ofItem: $0) } ?? 0
        navigate { $0.restart(selecting: row, in: $1) }
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

    /// Shows the help over the screen, or closes it, back to the screen beneath.
    public func toggleHelp() {
        if case .help(let beneath) = screen {
            show(beneath)
        } else {
            helpScroll = TextScroll()
            show(.help(over: screen))
        }
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

    // MARK: Updating

    /// Brings the state in line with the screen before a frame is composed, so that composing only reads: binds row
    /// slots to the rows on screen (starting and cancelling their thumbnail loads, caching their heights),
    /// prefetches around them, asks for the next page when the screen needs it (`Paging.need`), loads the detail
    /// pane's image at the pane's size, works out the frame model (what the frame places where: `frameModel`), and
    /// records how much of each scrolled text shows, for the keys that scroll it. The app's loop runs it before it
    /// composes each frame.
    public func update() {
        navigation.cover(lines: overlayCover(), in: list)
        var visible = bindAreaRows()
        // The overlay's height follows what it has to say, which binding the rows added to.
        if navigation.cover(lines: overlayCover(), in: list) { visible = bindAreaRows() }
        if let detail { paneImage.bind(detail, width: size.columns, height: listHeight) }
        storeFrameModel(areaRows: visible)
        fitScrolledTexts()
    }

    /// Binds slots to the rows in the list area and asks for the next page when they need it; returns those rows.
    private func bindAreaRows() -> Range<Int> {
        let visible = navigation.measureAreaRows(in: list)
        if let size = listLayout.thumbnailBox { binder.update(visible: visible, list: list, size: size) }
        if pageNeed(visible: visible) != .none { paging.loadIfNeeded() }
        return visible
    }

    /// How much the rows `visible` need the next page.
    func pageNeed(visible: Range<Int>) -> PageNeed {
        paging.need(visible: visible, listHeight: listHeight) { navigation.filledLines(in: list) }
    }

    /// The lines the reuse overlay covers at the bottom of the list area: the lines it wants, less any the selected
    /// row needs to show whole above it (over a pane, all it wants); none when it is hidden or has no room.
    private func overlayCover() -> Int {
        guard showingReuseOverlay else { return 0 }
        let wanted = reuseOverlay.wantedHeight(width: size.columns, listHeight: listHeight)
        guard detail == nil, pageFailure == nil else { return wanted }
        let lines = min(wanted, listHeight - navigation.selectedRowLines(in: list))
        return lines >= 2 ? lines : 0
    }

    /// Records in each open text's `TextScroll` how much of it shows at this size, laid out by the view that
    /// draws it.
    private func fitScrolledTexts() {
        let (columns, rows) = size
        if screen.isHelp, let box = HelpView.box(configuration.helpLines, columns: columns, rows: rows) {
            helpScroll.fit(lineCount: box.lines.count, height: box.rows)
        }
        if let text = storedModel?.paneText {
            if let detail { detail.textScroll.fit(text) }
            if let pageFailure { pageFailure.textScroll.fit(text) }
        }
    }

    // MARK: Pages

    /// Starts loading the first page (called once by the app).
    public func start() {
        paging.loadIfNeeded()
    }

    /// Retries the page that failed, back to the list from its pane.
    public func retryPage() {
        guard case .failed = list.status else { return }
        if screen.pageFailure != nil { screen = .list }
        _ = paging.retry()
    }

    /// Asks the source again after a run of empty pages stopped paging (`r` or Enter on the last row); a stop that
    /// ends the list (a loop, a ceiling) says so again instead.
    public func resumePaging() {
        if let note = paging.resume() { say(note) }
    }

    /// Whether the next page waits for its turn: the table asks for at most `PagePace.perSecond` pages a second on
    /// its own, after a first `PagePace.burst`.
    public var isPacingPages: Bool { paging.isPacing }

    /// Stops every load: page, thumbnails, detail image.
    public func cancelAll() {
        paging.cancel()
        batch.stop()
        binder.cancelAll(size: listLayout.thumbnailBox)
    }
}
