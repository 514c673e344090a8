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
    }

    public private(set) var items: [Item] = []
    public internal(set) var status: Status
    public private(set) var pagesLoaded = 0
    /// How many items the whole list has, when the source says (SWAPI's `count`, `X-Total-Count`): the latest page's.
    public private(set) var total: Int?
    /// Whether `total` counts what the source has found so far, with more on the way.
    public private(set) var totalStillCounting = false
    /// What the user typed after `/`; rows are those whose title contains it (ignoring case).
    public private(set) var filter = ""
    /// The items matching the filter, by index in `items`; nil without a filter.
    private(set) var filtered: [Int]?
    /// What the source left out or repaired on the pages loaded so far (links refused, items past a limit, bad
    /// UTF-8), latest last.
    public private(set) var pageNotes: [String] = []

    /// The most page notes kept.
    static let keptNotes = 50

    init(firstPage: PageCursor) {
        status = .more(firstPage)
    }

    /// Items shown (all loaded items, or those matching the filter).
    public var itemCount: Int { filtered?.count ?? items.count }

    /// Rows shown: the matching items plus, at the end, a status row while loading, after a failure, or at the end.
    public var displayCount: Int { itemCount + (hasStatusRow ? 1 : 0) }

    var hasStatusRow: Bool {
        if case .more = status { return false }
        return true
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

    /// Shows only the items whose title contains `text` (all of them when it is empty).
    mutating func setFilter(_ text: String) {
        filter = text
        filtered = text.isEmpty ? nil : items.indices.filter { Self.title(items[$0].title, matches: text) }
    }

    /// Whether `title` contains `filter`, ignoring case (Unicode's lowercase mapping, no locale).
    static func title(_ title: String, matches filter: String) -> Bool {
        title.lowercased().contains(filter.lowercased())
    }

    /// Adds a page's items (filtered as the rest) and notes, and takes its next cursor.
    /// - Returns: the page's notes as one line for the status line, if it brought any.
    mutating func append(_ page: ItemPage) -> String? {
        let start = items.count
        items.append(contentsOf: page.items)
        pagesLoaded += 1
        if let count = page.totalCount {
            total = count
            totalStillCounting = page.stillCounting
        }
        if !filter.isEmpty {
            filtered?.append(contentsOf: (start..<items.count).filter {
                Self.title(items[$0].title, matches: filter)
            })
        }
        status = page.next.map { .more($0) } ?? .end
        guard !page.notes.isEmpty else { return nil }
        pageNotes = Array((pageNotes + page.notes).suffix(Self.keptNotes))
        return page.notes.joined(separator: " · ")
    }

    /// Puts an item the source looked up again in place of the old one.
    mutating func replace(item index: Int, with item: Item) {
        items[index] = item
    }
}
