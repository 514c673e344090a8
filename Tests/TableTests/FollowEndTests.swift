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
        // The selection is on the last row: the end-of-list row below item 95.
        #expect(table.viewport.selection == 95)
        #expect(!table.isFollowingEnd, "the list ended, so following stopped")
        #expect(table.nextFrame().lines.joined().contains("end of the list"))
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
        #expect(table.nextFrame().lines[0].hasSuffix("row 1 of 20 loaded, 95 in all "))
    }

    @Test func theHeaderLeavesTheTotalOutWhenEverythingIsLoaded() async {
        let (table, waiter) = makeTable(FakeItemSource(count: 15, pageSize: 20))
        table.start()
        await waiter.until { table.listStatus == .end }
        #expect(table.nextFrame().lines[0].hasSuffix("row 1 of 15 loaded "))
    }
}
