import Cells
import Foundation
import Items
import Synchronization
import Table
import TestSupport
import Testing

/// The header follows a source that is still counting (a folder being walked) between pages, not only when a page
/// arrives, and says "in all" once the count is final.
@MainActor
@Suite struct LiveCountTests {
    /// Ten items in a first page, and a count the test moves.
    final class CountingSource: ItemSource {
        let count = Mutex(ItemCount(total: 10, stillCounting: true))
        var name: String { "Counting" }
        var attribution: String { "All images from the test" }
        var firstPage: PageCursor { .offset(0) }

        /// The first page at once; the next never comes (a walk that has not listed it yet).
        func page(at cursor: PageCursor) async throws -> ItemPage {
            if cursor != .offset(0) { try await Task.sleep(for: .seconds(3600)) }
            return ItemPage(items: (0..<10).map { FakeItemSource.numberedItem($0) }, next: .offset(10), totalCount: 10,
                     stillCounting: true)
        }

        func countSoFar() -> ItemCount? { count.withLock { $0 } }
    }

    @Test func theHeaderFollowsTheCountBetweenPagesUntilItIsFinal() async {
        let source = CountingSource()
        let (table, waiter) = await ChangeWaiter.startedTable(source)
        func header() -> String { table.nextFrame().lines[0] }
        #expect(header().contains(/\ \/ 10\b/))
        source.count.withLock { $0 = ItemCount(total: 4321, stillCounting: true) }
        #expect(await waiter.until { header().contains("4321 found so far") })
        source.count.withLock { $0 = ItemCount(total: 5000, stillCounting: false) }
        #expect(await waiter.until { header().contains("5000 in all") })
        #expect(table.pagesLoaded == 1, "the count came while the next page was still out")
    }

    /// Ten items under a total of `total`: a count no page can have.
    final class WrongTotalSource: ItemSource {
        let total: Int
        init(total: Int) { self.total = total }
        var name: String { "Wrong total" }
        var attribution: String { "All images from the test" }
        var firstPage: PageCursor { .offset(0) }

        func page(at cursor: PageCursor) async throws -> ItemPage {
            ItemPage(items: (0..<10).map { FakeItemSource.numberedItem($0) }, next: nil, totalCount: total)
        }
    }

    /// `X-Total-Count: -5`, or 3 for ten rows loaded: not believed; the header counts the rows it has.
    @Test(arguments: [-5, 3, 9, Int.min])
    func aTotalBelowTheLoadedRowsIsIgnored(_ total: Int) async {
        let (table, _) = await ChangeWaiter.startedTable(WrongTotalSource(total: total))
        let header = table.nextFrame().lines[0]
        #expect(!header.contains("\(total)") && !header.contains("in all"), "\(header)")
        #expect(header.contains(/\ \/ 10\b/), "\(header)")
    }
}
