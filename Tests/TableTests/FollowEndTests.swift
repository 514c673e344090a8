import Cells
import Foundation
import Items
import Table
import TestSupport
import Testing

/// G (End) follows the end of the list as pages arrive until the list ends; any key stops it; the header shows the
/// total the source gives.
@MainActor
@Suite struct FollowEndTests {
    func makeTable(_ source: FakeItemSource, grid: Bool = false) -> (TableController, ChangeWaiter) {
        let table = TableController(source: source, loader: FakeThumbnailLoader(),
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3)))
        let waiter = ChangeWaiter(table)
        table.resize(columns: 80, rows: 24)
        if grid { table.toggleLayout() }
        return (table, waiter)
    }

    /// Runs `update()` as the app does before each frame (it asks for the next page at the end), each time a page
    /// arrives, until the list has ended or a page failed. Returns whether it ended.
    func followToTheEnd(_ table: TableController, _ waiter: ChangeWaiter) async -> Bool {
        for _ in 0..<50 {
            table.update()
            guard case .loading = table.listStatus else { break }
            let count = table.items.count
            guard await waiter.until({ table.items.count > count || table.listStatus != .loading }) else { break }
        }
        return table.listStatus == .end
    }

    @Test(arguments: [false, true])
    func gFollowsTheEndAsPagesArriveUntilTheListEnds(grid: Bool) async {
        let source = FakeItemSource(count: 95, pageSize: 20)
        let (table, waiter) = makeTable(source, grid: grid)
        table.start()
        await waiter.until { table.items.count == 20 }
        table.goEnd()
        #expect(table.isFollowingEnd)
        #expect(await followToTheEnd(table, waiter))
        #expect(table.items.count == 95)
        #expect(source.requests == [1, 2, 3, 4, 5])
        // The selection is on the last item, 95 (row 94), with the end-of-list row below it on screen.
        #expect(table.viewport.selection == 94)
        #expect(table.selectedItem?.index == 94)
        #expect(!table.isFollowingEnd, "the list ended, so following stopped")
        #expect(table.nextFrame().lines.joined().contains("end of the list"))
    }

    /// G on a list that has ended selects the last item, not the end-of-list row below it (a marker: Enter there
    /// does nothing), and shows that row; Enter then opens the last item.
    @Test(arguments: [false, true])
    func gSelectsTheLastItemAndShowsTheEndRowBelowIt(grid: Bool) async {
        let (table, waiter) = makeTable(FakeItemSource(count: 15, pageSize: 20), grid: grid)
        table.start()
        await waiter.until { table.listStatus == .end }
        table.goEnd()
        #expect(table.selectedItem?.index == 14)
        #expect(table.visibleRows.contains(table.displayCount - 1), "the end row is on screen")
        #expect(table.nextFrame().lines.joined().contains("end of the list"))
        table.openSelected()
        #expect(table.detail?.itemIndex == 14)
    }

    /// While following, the selection rides the last loaded item, not the loading row below it.
    @Test func whileFollowingTheSelectionIsOnTheLastLoadedItem() async {
        let (table, waiter) = makeTable(FakeItemSource(count: 95, pageSize: 20))
        table.start()
        await waiter.until { table.items.count == 20 }
        table.goEnd()
        #expect(table.selectedItem?.index == 19)
        table.update()
        await waiter.until { table.items.count == 40 }
        #expect(table.selectedItem?.index == 39)
    }

    /// A list with no items: G selects its only row, the status row.
    @Test func gOnAnEmptyListSelectsItsOnlyRow() async {
        let (table, waiter) = makeTable(FakeItemSource(count: 0, pageSize: 20))
        table.start()
        await waiter.until { table.listStatus != .loading }
        table.goEnd()
        #expect(table.viewport.selection == 0)
        #expect(table.displayCount == 1)
    }

    @Test func anyKeyStopsFollowingAndTheSelectionStays() async {
        let source = FakeItemSource(count: 95, pageSize: 20)
        let (table, waiter) = makeTable(source)
        table.start()
        await waiter.until { table.items.count == 20 }
        table.goEnd()
        let header = table.nextFrame().lines[0]
        #expect(header.contains("following the end"), "\(header)")
        table.stopFollowingEnd()
        table.move(by: -1)
        let selected = table.viewport.selection
        table.update()
        await waiter.until { table.items.count == 40 }
        #expect(table.viewport.selection == selected, "a page arriving does not move a selection the user moved")
        #expect(!table.nextFrame().lines[0].contains("following"))
    }

    @Test func aFailedPageStopsFollowingOnItsRow() async {
        let source = FakeItemSource(count: 95, pageSize: 20, failingPages: [3])
        let (table, waiter) = makeTable(source)
        table.start()
        await waiter.until { table.items.count == 20 }
        table.goEnd()
        #expect(!(await followToTheEnd(table, waiter)))
        #expect({ if case .failed = table.listStatus { true } else { false } }())
        #expect(!table.isFollowingEnd)
        #expect(table.viewport.selection == 40, "the failed page's row, below the 40 rows loaded")
    }

    @Test func theHeaderShowsTheTotalTheSourceGives() async {
        let (table, waiter) = makeTable(FakeItemSource(count: 95, pageSize: 20))
        table.start()
        await waiter.until { table.items.count == 20 }
        #expect(table.nextFrame().lines[0].hasSuffix("1 / 20 · 95 in all "))
    }

    @Test func theHeaderLeavesTheTotalOutWhenEverythingIsLoaded() async {
        let (table, waiter) = makeTable(FakeItemSource(count: 15, pageSize: 20))
        table.start()
        await waiter.until { table.listStatus == .end }
        #expect(table.nextFrame().lines[0].hasSuffix(" 1 / 15 "))
    }
}
