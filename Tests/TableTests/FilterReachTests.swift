import Cells
import Foundation
import Items
import Table
import TestSupport
import Testing

/// The filter over what a row shows (title, subtitle, attribution), and the limit on rows it reads without a match:
/// paging stops there and the status row says how many rows were read, until Enter reads more.
@MainActor
@Suite struct FilterReachTests {
    func makeTable(_ source: FakeItemSource, filterReadLimit: Int = 500) async -> (TableController, ChangeWaiter) {
        let table = TableController(source: source, loader: FakeThumbnailLoader(),
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3),
                                                         filterReadLimit: filterReadLimit))
        let waiter = ChangeWaiter(table)
        table.resize(columns: 80, rows: 24)
        table.start()
        await waiter.until { table.listStatus != .loading }
        return (table, waiter)
    }

    /// Runs the app loop's `update()` page after page, as frames would, until it asks for no further page.
    func readPages(_ table: TableController, _ waiter: ChangeWaiter) async {
        for _ in 0..<200 {
            table.update()
            guard table.listStatus == .loading else { return }
            await waiter.until { table.listStatus != .loading }
        }
    }

    func type(_ text: String, into table: TableController) {
        table.beginFilter()
        for c in text { table.editFilter(appending: c) }
    }

    @Test func theFilterMatchesSubtitlesAndAttributionsNotOnlyTitles() async {
        let source = FakeItemSource(count: 20) { i in
            Item(id: "\(i)", title: "Item \(i)", subtitle: i == 3 ? "a striped zebra" : "plain",
                 attribution: i == 7 ? "Image from Zebra Archive" : "Image from elsewhere")
        }
        let (table, _) = await makeTable(source)
        type("zebra", into: table)
        #expect(table.itemCount == 2)
        #expect(table.itemIndex(forRow: 0) == 3)
        #expect(table.itemIndex(forRow: 1) == 7)
        let lines = table.nextFrame().lines
        #expect(lines.contains { $0.contains("a striped zebra") })
    }

    @Test func aFilterMatchingNothingStopsReadingAtTheLimitAndSaysHowManyRowsItRead() async {
        let source = FakeItemSource(count: 1000, pageSize: 20)
        let (table, waiter) = await makeTable(source, filterReadLimit: 100)
        type("zzzq", into: table)
        await readPages(table, waiter)
        _ = table.nextFrame()
        #expect(table.items.count == 100, "pages stop at the limit: 5 pages of 20")
        #expect(source.requests == [1, 2, 3, 4, 5])
        let text = table.nextFrame().lines.joined(separator: "\n")
        #expect(text.contains("No match for \"zzzq\" in 100 rows read; reading stopped"))
        #expect(text.contains("no match in the last 100 rows (100 read) · Enter reads 100 more"))
    }

    @Test func enterOnTheStoppedRowReadsAsManyRowsMore() async {
        let source = FakeItemSource(count: 1000, pageSize: 20)
        let (table, waiter) = await makeTable(source, filterReadLimit: 100)
        type("zzzq", into: table)
        table.endFilterEditing()
        await readPages(table, waiter)
        table.openSelected()
        await readPages(table, waiter)
        _ = table.nextFrame()
        #expect(table.items.count == 200)
        #expect(table.nextFrame().lines.joined().contains("(200 read) · Enter reads 100 more"))
    }

    @Test func aMatchResetsTheCountOfRowsReadWithoutOne() async {
        // Item 70 matches: reading goes on past it for another limit's worth of rows.
        let source = FakeItemSource(count: 1000, pageSize: 20) { i in
            Item(id: "\(i)", title: i == 70 ? "the needle" : "Item \(i)")
        }
        let (table, waiter) = await makeTable(source, filterReadLimit: 100)
        type("needle", into: table)
        await readPages(table, waiter)
        _ = table.nextFrame()
        #expect(table.itemCount == 1)
        #expect(table.items.count == 180, "71 rows to the match, then 100 more, rounded up to a page")
        #expect(table.nextFrame().lines.joined().contains("no match in the last 109 rows (180 read)"))
    }

    @Test func nAndPMoveTheDetailPaneAndTheSelectionFollows() async {
        let (table, _) = await makeTable(FakeItemSource(count: 50))
        table.openSelected()
        #expect(table.detail?.itemIndex == 0)
        table.openAdjacent(by: 1)
        table.openAdjacent(by: 1)
        #expect(table.detail?.itemIndex == 2)
        #expect(table.viewport.selection == 2)
        table.openAdjacent(by: -1)
        #expect(table.detail?.itemIndex == 1)
        #expect(table.nextFrame().lines.joined().contains("Item 1"))
        table.openAdjacent(by: -5)
        #expect(table.detail?.itemIndex == 1, "nothing before the first item")
        #expect(table.status == "this is the first item")
    }

    @Test func nAtTheLastLoadedItemLoadsTheNextPage() async {
        let source = FakeItemSource(count: 50, pageSize: 20)
        let (table, waiter) = await makeTable(source)
        table.openSelected()
        for _ in 0..<19 { table.openAdjacent(by: 1) }
        #expect(table.detail?.itemIndex == 19)
        _ = table.nextFrame()
        await waiter.until { table.items.count == 40 }
        table.openAdjacent(by: 1)
        #expect(table.detail?.itemIndex == 20, "the pane moved on into the next page")
        #expect(source.requests.starts(with: [1, 2]))
    }
}
