import Cells
import Foundation
import Items
import Table
import TestSupport
import Testing

/// Loading more rows near the bottom, failed pages, retries, the end of the list.
@MainActor
@Suite struct PagingTests {
    func makeTable(_ source: FakeItemSource) -> (TableController, ChangeWaiter) {
        let table = TableController(source: source, loader: FakeThumbnailLoader(),
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3)))
        let waiter = ChangeWaiter(table)
        table.resize(columns: 80, rows: 24)
        return (table, waiter)
    }

    @Test func theNextPageIsRequestedOnceWhenTheViewportNearsTheEnd() async {
        let source = FakeItemSource(count: 100, pageSize: 20)
        let (table, waiter) = makeTable(source)
        table.start()
        await waiter.until { table.items.count == 20 }
        table.update()
        // 20 rows of 4 lines, 21 lines on screen: not yet within a screen of the end.
        #expect(source.requests == [1])
        table.move(by: 14)
        table.update()
        table.update()
        await waiter.until { table.items.count == 40 }
        #expect(source.requests == [1, 2])
    }

    @Test func aFailedPageBecomesARetryableErrorRow() async {
        let source = FakeItemSource(count: 60, pageSize: 20, failingPages: [2])
        let (table, waiter) = makeTable(source)
        table.start()
        await waiter.until { table.items.count == 20 }
        table.goEnd()
        table.update()
        #expect(await waiter.until { if case .failed = table.listStatus { true } else { false } })
        table.goEnd()
        let text = table.nextFrame().lines.joined(separator: "\n")
        #expect(text.contains("Could not load more rows: HTTP 500 from http://127.0.0.1/page/2"))
        #expect(table.items.count == 20, "rows already loaded stay")
        // Enter on the error row shows why; retrying from there loads the page.
        table.openSelected()
        #expect(table.pageFailure?.reason == "HTTP 500 from http://127.0.0.1/page/2")
        #expect(source.requests == [1, 2])
        table.retryPage()
        #expect(await waiter.until { table.items.count == 40 })
        #expect(source.requests == [1, 2, 2])
    }

    @Test func theEndOfTheListSaysSo() async {
        let source = FakeItemSource(count: 30, pageSize: 20)
        let (table, waiter) = makeTable(source)
        table.start()
        await waiter.until { table.items.count == 20 }
        table.goEnd()
        table.update()
        await waiter.until { table.listStatus == .end }
        table.goEnd()
        let lines = table.nextFrame().lines
        #expect(lines.joined().contains("end of the list: 30 items"))
        #expect(source.requests == [1, 2])
    }

    @Test func endWorksOnAHugeList() async {
        // End on a long list: only the rows near the end are measured (see ListViewportTests for the count).
        let source = FakeItemSource(count: 300_000, pageSize: 300_000)
        let (table, waiter) = makeTable(source)
        table.start()
        // 60 s, not the default 10: under the sanitizers (scripts/sanitize) this page takes longer than 10 s to arrive.
        #expect(await waiter.until(timeout: .seconds(60)) { table.items.count == 300_000 })
        table.goEnd()
        let frame = table.nextFrame()
        #expect(frame.lines[0].contains(" 300000 / 300000"))
    }
}
