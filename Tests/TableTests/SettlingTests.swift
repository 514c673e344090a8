import Cells
import Foundation
import Items
import Table
import TestSupport
import Testing

/// `isSettled`, what the print mode waits for: the pages the screen needs have arrived and every thumbnail on screen
/// has loaded or failed; a page fetched ahead for rows below the screen does not count.
@MainActor
@Suite struct SettlingTests {
    func makeTable(_ source: FakeItemSource, loader: FakeThumbnailLoader, rows: Int = 24)
        -> (TableController, ChangeWaiter)
    {
        let table = TableController(source: source, loader: loader,
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3), prefetch: false))
        let waiter = ChangeWaiter(table)
        waiter.observe(loader)
        table.resize(columns: 80, rows: rows)
        return (table, waiter)
    }

    @Test func aTableNotStartedWaitsForItsFirstPage() {
        let (table, _) = makeTable(FakeItemSource(count: 5), loader: FakeThumbnailLoader())
        #expect(table.isWaitingForPage)
        #expect(!table.isSettled)
    }

    @Test func itSettlesOnceEveryThumbnailOnScreenHasLoaded() async {
        let loader = FakeThumbnailLoader(gated: true)
        let (table, waiter) = makeTable(FakeItemSource(count: 50, pageSize: 50), loader: loader)
        table.start()
        #expect(await waiter.until { table.listStatus != .loading })
        // Rows on screen, not yet bound: each counts as waiting.
        let onScreen = table.visibleRows.count
        #expect(onScreen > 1)
        #expect(!table.isWaitingForPage)
        #expect(table.waitingThumbnails == onScreen)
        table.update()
        #expect(await waiter.until { loader.pending.count == onScreen })
        #expect(table.waitingThumbnails == onScreen)
        #expect(!table.isSettled)
        loader.releaseAll()
        #expect(await waiter.until { table.isSettled })
        #expect(table.waitingThumbnails == 0)
        #expect(table.failedThumbnails.isEmpty)
    }

    @Test func aFailedThumbnailSettlesAndIsNamed() async {
        let loader = FakeThumbnailLoader(failing: ["1.png"])
        let (table, waiter) = makeTable(FakeItemSource(count: 3), loader: loader)
        table.start()
        #expect(await waiter.until { table.listStatus == .end })
        table.update()
        #expect(await waiter.until { table.isSettled })
        #expect(table.failedThumbnails.map(\.title) == ["Item 1"])
        #expect(table.failedThumbnails.first?.reason.contains("not a PNG file: 1.png") == true)
    }

    @Test func aRowWithoutAnImageWaitsForNothing() async {
        let source = FakeItemSource(count: 2) { i in Item(id: "\(i)", title: "Item \(i)") }
        let (table, waiter) = makeTable(source, loader: FakeThumbnailLoader(gated: true))
        table.start()
        #expect(await waiter.until { table.listStatus == .end })
        table.update()
        #expect(table.isSettled)
    }

    @Test func aShortPageWithMoreToComeKeepsTheScreenWaiting() async {
        // Pages of 2 rows on a 60-line screen: the first leaves most of the screen empty, so the next is needed.
        let loader = FakeThumbnailLoader()
        let (table, waiter) = makeTable(FakeItemSource(count: 4, pageSize: 2), loader: loader, rows: 60)
        table.start()
        #expect(await waiter.until { table.pagesLoaded == 1 })
        #expect(table.isWaitingForPage)
        table.update()
        #expect(table.listStatus == .loading)
        #expect(table.isWaitingForPage, "the status row (loading more…) is on screen")
        #expect(await waiter.until {
            table.update()
            return table.isSettled
        })
        #expect(table.pagesLoaded == 2 && table.listStatus == .end)
    }

    @Test func theGridSettlesOnItsCellsAndWaitsForAPageThatWouldFillIt() async {
        // Pages of 3 cells in a grid of 4 across a 120x40 screen: a short first page leaves lines of the grid empty.
        let loader = FakeThumbnailLoader(gated: true)
        let table = TableController(source: FakeItemSource(count: 6, pageSize: 3), loader: loader,
                                    configuration: .init(thumbnail: nil, prefetch: false, layout: .grid))
        let waiter = ChangeWaiter(table)
        waiter.observe(loader)
        table.resize(columns: 120, rows: 40)
        table.start()
        #expect(await waiter.until { table.pagesLoaded == 1 })
        #expect(table.isWaitingForPage, "three cells do not fill the grid's lines")
        table.update()
        #expect(await waiter.until { table.pagesLoaded == 2 && table.listStatus == .end })
        table.update()
        #expect(!table.isWaitingForPage)
        // Every cell on screen waits for its picture until the loader answers.
        #expect(await waiter.until { loader.pending.count == 6 })
        #expect(table.waitingThumbnails == 6)
        loader.releaseAll()
        #expect(await waiter.until { table.isSettled })
    }

    @Test func aPageFetchedAheadForRowsBelowTheScreenIsNotWaitedFor() async {
        // 8 rows a page on a 24-line screen of 4-line rows: the screen is full, and update() fetches page 2 ahead.
        let loader = FakeThumbnailLoader()
        let (table, waiter) = makeTable(FakeItemSource(count: 50, pageSize: 8), loader: loader)
        table.start()
        #expect(await waiter.until { table.pagesLoaded == 1 })
        table.update()
        #expect(table.listStatus == .loading)
        #expect(table.visibleRows.upperBound < table.itemCount)
        #expect(!table.isWaitingForPage)
    }
}
