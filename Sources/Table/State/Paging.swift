import Items

/// How much the screen needs the next page: the one rule that both asks for pages and says whether the screen waits.
enum PageNeed {
    /// The screen is more than a screen away from the last loaded row.
    case none
    /// The last loaded row is within a screen: fetch ahead, though the screen shows nothing of it.
    case ahead
    /// The screen shows the status row, or its rows do not fill the list area: it waits for the page.
    case onScreen
}

/// The list's pages: asks the source for them (`PageLoader`), holds the rows they bring (`ListState`), follows the
/// source's count while it is still counting, and follows the end for `G`. Results change the list and call the
/// change handler, and `arrived` for what the rest of the table does then.
@MainActor
final class Paging {
    let source: any ItemSource
    /// The loaded rows, the filter and where paging stands.
    private(set) var list: ListState
    private let pages: PageLoader
    /// Follows the source's count between pages while it is still counting (see `watchCount`).
    private var countWatch: Task<Void, Never>?
    /// Whether `G` is following the end of the list as pages arrive.
    private(set) var isFollowingEnd = false
    private let changes: ChangeSignal
    /// Called when a page arrived or failed, before the change handler: the page's notes, if any, and whether the
    /// selection follows the end.
    var arrived: @MainActor (_ notes: String?, _ followingEnd: Bool) -> Void = { _, _ in }

    init(source: any ItemSource, configuration: TableController.Configuration, changes: ChangeSignal) {
        self.source = source
        self.list = ListState(firstPage: source.firstPage, filterReadLimit: configuration.filterReadLimit,
                              ceilings: configuration.listCeilings)
        self.pages = PageLoader(source: source, clock: configuration.pagingClock)
        self.changes = changes
    }

    /// How much the screen showing `visible` needs the next page; `filledLines` is read only when the last loaded
    /// row is the last on screen.
    func need(visible: Range<Int>, listHeight: Int, filledLines: () -> Int) -> PageNeed {
        let count = list.itemCount
        if visible.upperBound + visible.count < count { return .none }
        // A loaded row lies below the screen: the screen is full of rows already.
        if visible.upperBound < count { return .ahead }
        // The status row ("loading more…") shows.
        if visible.upperBound > count { return .onScreen }
        return filledLines() < listHeight ? .onScreen : .ahead
    }

    /// Whether a page that the screen needs is loading or still to load.
    func isWaiting(for need: @autoclosure () -> PageNeed) -> Bool {
        switch list.status {
        case .loading, .more: need() == .onScreen
        case .failed, .end, .stopped: false
        }
    }

    /// Asks for the next page when there is one to ask for and the filter has not paused the reading.
    func loadIfNeeded() {
        guard case .more(let cursor) = list.status, !list.isPausedByFilter else { return }
        load(cursor)
    }

    /// Retries the page that failed; returns whether one had.
    func retry() -> Bool {
        guard case .failed(_, let cursor) = list.status else { return false }
        load(cursor)
        return true
    }

    /// Asks the source again after a run of empty pages stopped paging; returns the note that says why not when the
    /// stop ends the list (a loop, a ceiling), and nil otherwise.
    func resume() -> String? {
        guard case .stopped(let stop) = list.status else { return nil }
        guard let cursor = list.resumePaging() else { return stop.note }
        load(cursor)
        return nil
    }

    /// Whether the next page waits for its turn (`PagePace`).
    var isPacing: Bool { pages.waitingUntil != nil }

    /// Starts following the end as pages arrive, while more are to come.
    func followEnd() {
        isFollowingEnd = !list.status.hasEnded
    }

    /// Stops following the end; returns whether it was following.
    func stopFollowingEnd() -> Bool {
        defer { isFollowingEnd = false }
        return isFollowingEnd
    }

    /// Shows only the rows whose text contains `text` (empty: all).
    func setFilter(_ text: String) {
        list.setFilter(text)
    }

    /// Reads on past the filter's limit of rows without a match.
    func readMoreDespiteFilter() {
        list.readMoreDespiteFilter()
    }

    /// Puts an item looked up again in its place.
    func replace(item index: Int, with item: Item) {
        list.replace(item: index, with: item)
    }

    /// Why no item follows the last one loaded, for the status line.
    var endNote: String {
        switch list.status {
        case .loading, .more: list.isPausedByFilter
            ? "no further match in \(list.readWithoutMatch) rows read; Esc, then Enter on the last row reads more"
            : "loading more items…"
        case .failed: "the next page failed to load: Esc, then Enter on the last row says why"
        case .end: "this is the last item"
        case .stopped(let stop): "this is the last item: \(stop.note)"
        }
    }

    private func load(_ cursor: PageCursor) {
        list.status = .loading
        changes.send()
        pages.load(cursor) { [weak self] result in self?.pageArrived(result, cursor: cursor) }
    }

    private func pageArrived(_ result: Result<ItemPage, any Error>, cursor: PageCursor) {
        var notes: String?
        switch result {
        case .success(let page):
            notes = list.append(page, from: cursor)
            if page.stillCounting { watchCount() }
        case .failure(let error):
            list.status = .failed(message: String(describing: error), cursor: cursor)
        }
        let following = isFollowingEnd
        // The next page is asked for by `update()`, as for any viewport at the last loaded row.
        if list.status.hasEnded { isFollowingEnd = false }
        arrived(notes, following)
        changes.send()
    }

    /// How often the header looks at a count the source is still making.
    static let countInterval: Duration = .milliseconds(250)

    /// While the source is still counting (a folder walk going on), reads its count every `countInterval`, and at
    /// once when it becomes final, and redraws the header when it moved: the header's "found so far" keeps up with
    /// the walk, not only when a page arrives.
    private func watchCount() {
        guard countWatch == nil else { return }
        let source = source
        countWatch = Task { [weak self] in
            while await source.waitForCount(upTo: Self.countInterval) {
                guard let self, let count = self.source.countSoFar() else { return }
                if count.total != self.list.total || count.stillCounting != self.list.totalStillCounting {
                    self.list.recount(count)
                    self.changes.send()
                }
                if !count.stillCounting { break }
            }
            self?.countWatch = nil
        }
    }

    /// Stops the page under way and the count's watch.
    func cancel() {
        countWatch?.cancel()
        pages.cancel()
    }
}

extension ListState.Status {
    /// Whether no further page comes without a key: the end, a failure, or paging stopped.
    var hasEnded: Bool {
        switch self {
        case .more, .loading: false
        case .end, .failed, .stopped: true
        }
    }
}
