import Foundation
import Items

/// An item source for tests: `count` numbered items, `pageSize` a page, answering at once; pages listed in
/// `failingPages` fail (once each, unless `failForever`), so retries can be tested.
public final class FakeItemSource: ItemSource, @unchecked Sendable {
    // @unchecked: the mutable state (`requests`, `failures`) is only touched under `lock`.
    public let name = "Fake source"
    public let attribution = "All images from the test"
    public let count: Int
    public let pageSize: Int
    private let lock = NSLock()
    private var failures: Set<Int>
    private let failForever: Bool
    private var _requests: [Int] = []
    private let makeItem: @Sendable (Int) -> Item

    public init(count: Int, pageSize: Int = 20, failingPages: Set<Int> = [], failForever: Bool = false,
                makeItem: @escaping @Sendable (Int) -> Item = FakeItemSource.numberedItem) {
        self.count = count
        self.pageSize = pageSize
        self.failures = failingPages
        self.failForever = failForever
        self.makeItem = makeItem
    }

    /// The pages asked for, in order.
    public var requests: [Int] { lock.withLock { _requests } }

    public var firstPage: PageCursor { .number(1) }

    public func page(at cursor: PageCursor) async throws -> ItemPage {
        guard case .number(let n) = cursor else { throw ItemSourceError("bad cursor") }
        let fails = lock.withLock { () -> Bool in
            _requests.append(n)
            if failures.contains(n) {
                if !failForever { failures.remove(n) }
                return true
            }
            return false
        }
        if fails { throw ItemSourceError("HTTP 500 from http://127.0.0.1/page/\(n)") }
        let start = (n - 1) * pageSize
        let end = min(count, start + pageSize)
        return ItemPage(items: (start..<end).map(makeItem), next: end < count ? .number(n + 1) : nil,
                        totalCount: count)
    }

    /// Item `i`: title "Item i", an image URL naming it, an attribution.
    public static func numberedItem(_ i: Int) -> Item {
        Item(id: "\(i)", title: "Item \(i)", subtitle: "subtitle \(i)",
             fields: [Item.Field("Number", "\(i)")],
             imageURL: URL(string: "http://127.0.0.1/images/\(i).png"),
             attribution: "Image from test \(i)")
    }
}
