import FoundationEssentials
import Items

/// The list as its source gave it: the loaded items, the filter over them, where paging stands, and the notes the
/// pages brought. It knows nothing of the screen.
public struct ListState: Sendable {
    /// Where the list stands with its source.
    public enum Status: Sendable, Equatable {
        /// A page is being loaded.
        case loading
        /// Idle, with more pages to load.
        case more(PageCursor)
        /// A page failed; `retry` loads it again.
        case failed(message: String, cursor: PageCursor)
        /// Every page is loaded.
        case end
        /// Paging stopped before the source's end, for the reason given (`PagingStop.note` words it); a run of
        /// empty pages may be asked again (`resumeCursor`).
        case stopped(PagingStop)
    }

    public private(set) var items: [Item] = []
    public internal(set) var status: Status
    public private(set) var pagesLoaded = 0
    /// How many items the whole list has, when the source says (SWAPI's `count`, `X-Total-Count`): the latest page's.
    public private(set) var total: Int?
    /// Whether `total` counts what the source has found so far, with more on the way.
    public private(set) var totalStillCounting = false
    /// What the user typed after `/`; rows are those whose title, subtitle or attribution (the text a row shows)
    /// contains it, ignoring case.
    public private(set) var filter = ""
    /// The items matching the filter, by index in `items`; nil without a filter.
    private(set) var filtered: [Int]?
    /// Rows read since the filter last matched one (or since it was typed): paging stops when they reach
    /// `filterReadLimit`, so a filter that matches nothing does not read a whole API silently.
    public private(set) var readWithoutMatch = 0
    /// How many rows a filter may read without a match before paging stops (`--filter-read-limit`), and how many
    /// more each Enter on the status row lets it read.
    public let filterReadStep: Int
    /// Where paging stops now: `filterReadStep`, raised by `readMoreDespiteFilter()` until the filter changes.
    public private(set) var filterReadLimit: Int
    /// What the source left out or repaired on the pages loaded so far (links refused, items past a limit, bad
    /// UTF-8), latest last.
    public private(set) var pageNotes: [String] = []

    /// The most page notes kept.
    static let keptNotes = 50

    /// The most rows a list holds: more than the largest photo folder, and a bound on what an endless source costs.
    public static let rowCeiling = 1_000_000
    /// The most text (titles, subtitles, fields, links, in UTF-8) a list holds: a source of 1 MB titles reaches it
    /// long before the row ceiling.
    public static let textCeiling = 256 << 20

    /// The pages loaded, to catch a source that leads back to one or keeps sending empty pages.
    private var trail = PageTrail()
    /// The text of the items held, in bytes (see `textCeiling`).
    public private(set) var textBytes = 0
    /// The ceilings this list stops at (the defaults above; tests lower them).
    let ceilings: (rows: Int, textBytes: Int)

    /// The default of `filterReadLimit`: ten pages of a typical API.
    public static let defaultFilterReadLimit = 500

    init(firstPage: PageCursor, filterReadLimit: Int = ListState.defaultFilterReadLimit,
         ceilings: (rows: Int, textBytes: Int) = (ListState.rowCeiling, ListState.textCeiling)) {
        status = .more(firstPage)
        self.ceilings = (max(1, ceilings.rows), max(1, ceilings.textBytes))
        filterReadStep = max(1, filterReadLimit)
        self.filterReadLimit = filterReadStep
    }

    /// Items shown (all loaded items, or those matching the filter).
    public var itemCount: Int { filtered?.count ?? items.count }

    /// Rows shown: the matching items plus, at the end, a status row while loading, after a failure, or at the end.
    public var displayCount: Int { itemCount + (hasStatusRow ? 1 : 0) }

    var hasStatusRow: Bool {
        if case .more = status { return isPausedByFilter }
        return true
    }

    /// Whether the status row is one a key acts on (Enter or `r`): a failed page, paging stopped on a run of empty
    /// pages, a filter's reading paused. The end of the list, or a page loading, is only a marker.
    var statusRowActs: Bool {
        switch status {
        case .failed: true
        case .stopped(let stop): stop.resumeCursor != nil
        case .more: isPausedByFilter
        case .loading, .end: false
        }
    }

    /// Whether paging stopped because the filter read `filterReadLimit` rows without a match while more pages
    /// remain; the status row says so, and `readMoreDespiteFilter()` goes on.
    public var isPausedByFilter: Bool {
        guard case .more = status, !filter.isEmpty else { return false }
        return readWithoutMatch >= filterReadLimit
    }

    /// Lets the filter read `filterReadStep` rows more without a match (Enter on the status row).
    mutating func readMoreDespiteFilter() {
        filterReadLimit = readWithoutMatch + filterReadStep
    }

    /// The index in `items` of a display row, or nil for the status row.
    public func itemIndex(forRow row: Int) -> Int? {
        guard row >= 0, row < itemCount else { return nil }
        return filtered?[row] ?? row
    }

    /// The display row of an item, or nil when the filter hides it.
    func row(ofItem index: Int) -> Int? {
        filtered.map { $0.firstIndex(of: index) } ?? index
    }

    /// Shows only the items whose row text (title, subtitle, attribution) contains `text`; all of them when it is
    /// empty. The count of rows read without a match starts again from the last match among those loaded.
    mutating func setFilter(_ text: String) {
        filter = text
        filterReadLimit = filterReadStep
        filtered = text.isEmpty ? nil : items.indices.filter { Self.matches(items[$0], text) }
        readWithoutMatch = filtered.map { items.count - 1 - ($0.last ?? -1) } ?? 0
    }

    /// Whether an item's row shows `text`: in its title, subtitle or attribution, ignoring case. The detail pane's
    /// fields are not on the row, so a match there would show a row without the text.
    static func matches(_ item: Item, _ text: String) -> Bool {
        // Unicode's lowercase mapping, no locale: Foundation's localized comparison needs ICU.
        let text = text.lowercased()
        return item.title.lowercased().contains(text) || item.subtitle.lowercased().contains(text)
            || (item.attribution?.lowercased().contains(text) ?? false)
    }

    /// Takes the source's count between pages (a folder walk going on): the header follows it.
    mutating func recount(_ count: ItemCount) {
        total = count.total
        totalStillCounting = count.stillCounting
    }

    /// Adds a page that arrived from `cursor`: its items (filtered as the rest) and notes, and its next cursor; or
    /// stops paging when the page leads back to one loaded already, repeats one's rows, ends a run of empty pages or
    /// passes a ceiling (the stop's note is added to the notes). A note about one item names its row as the header
    /// numbers it: the rows loaded before the page, plus its place in the page.
    /// - Returns: the page's notes (and the stop's) as one line for the status line, if there are any.
    mutating func append(_ page: ItemPage, from cursor: PageCursor) -> String? {
        let start = items.count
        pagesLoaded += 1
        var stop = trail.record(page, from: cursor, number: pagesLoaded)
        var kept = page.items
        if case .repeatedRows? = stop { kept = [] }
        if let cut = keptWithinCeilings(kept) {
            kept = cut.items
            stop = cut.stop
        }
        items.append(contentsOf: kept)
        textBytes += kept.reduce(0) { $0 + Self.textBytes(of: $1) }
        // A total below the rows already loaded (negative, or a server's stale or hostile X-Total-Count) is not
        // believed, and an earlier one the rows have passed is dropped: the header then counts what is loaded.
        if let count = page.totalCount, count >= items.count {
            total = count
            totalStillCounting = page.stillCounting
        } else if let known = total, known < items.count {
            total = nil
            totalStillCounting = false
        }
        if !filter.isEmpty {
            let matching = (start..<items.count).filter { Self.matches(items[$0], filter) }
            filtered?.append(contentsOf: matching)
            readWithoutMatch = matching.last.map { items.count - 1 - $0 } ?? readWithoutMatch + kept.count
        }
        status = stop.map { .stopped($0) } ?? page.next.map { .more($0) } ?? .end
        let itemNotes = Self.worded(page.itemNotes.filter { $0.index < kept.count }, firstRow: start + 1)
        let notes = page.notes + itemNotes + (stop.map { [$0.note] } ?? [])
        guard !notes.isEmpty else { return nil }
        pageNotes = Array((pageNotes + notes).suffix(Self.keptNotes))
        return notes.joined(separator: " · ")
    }

    /// A page's notes about single items, each named by its row (`firstRow` is the page's first): the first two
    /// in full, the rest counted, so one hostile page does not fill the status line.
    static func worded(_ notes: [ItemNote], firstRow: Int) -> [String] {
        let named = notes.prefix(2).map { "row \(firstRow + $0.index): \($0.text)" }
        let rest = notes.dropFirst(2)
        guard let kind = rest.first?.countedAs else { return named }
        let counted = rest.allSatisfy { $0.countedAs == kind } ? kind : "notes"
        return named + ["and \(rest.count) more rows with \(counted)"]
    }

    /// The items of a page that fit under the ceilings, and the stop when some do not.
    private func keptWithinCeilings(_ items: [Item]) -> (items: [Item], stop: PagingStop)? {
        var bytes = textBytes
        for (index, item) in items.enumerated() {
            if self.items.count + index >= ceilings.rows {
                return (Array(items.prefix(index)), .rowCeiling(rows: ceilings.rows))
            }
            bytes += Self.textBytes(of: item)
            if bytes > ceilings.textBytes {
                return (Array(items.prefix(index)), .textCeiling(bytes: ceilings.textBytes))
            }
        }
        return nil
    }

    /// The text an item holds, in UTF-8 bytes: what a source's items cost beyond their count.
    static func textBytes(of item: Item) -> Int {
        var bytes = item.id.utf8.count + item.title.utf8.count + item.subtitle.utf8.count
        bytes += item.allFields.reduce(0) { $0 + $1.label.utf8.count + $1.value.utf8.count }
        bytes += (item.imageURL?.absoluteString.utf8.count ?? 0) + (item.thumbnailURL?.absoluteString.utf8.count ?? 0)
        bytes += (item.attribution?.utf8.count ?? 0) + (item.imageLookupFailure?.utf8.count ?? 0)
        return bytes
    }

    /// Asks for more after a run of empty pages stopped paging (`r`): the count of empty pages starts again.
    /// - Returns: the cursor to load, or nil when paging did not stop that way.
    mutating func resumePaging() -> PageCursor? {
        guard case .stopped(let stop) = status, let cursor = stop.resumeCursor else { return nil }
        trail.resume()
        status = .more(cursor)
        return cursor
    }

    /// Puts an item the source looked up again in place of the old one.
    mutating func replace(item index: Int, with item: Item) {
        items[index] = item
    }
}
