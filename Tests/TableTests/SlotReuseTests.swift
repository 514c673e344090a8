import Cells
import Foundation
import Items
import Table
import TestSupport
import Testing

/// Reusable row slots: a pool sized to the screen, cancel on reuse, and no late result painting the wrong row.
@MainActor
@Suite struct SlotReuseTests {
    func makeTable(count: Int, loader: FakeThumbnailLoader, rows: Int = 24) async -> (TableController, ChangeWaiter) {
        // Keys a second apart: slots are reused, not freed for rows flown past (`ScrollPaceTests`).
        let table = TableController(source: FakeItemSource(count: count, pageSize: 100), loader: loader,
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3),
                                                         clock: ManualClock(step: .seconds(1)).read))
        let waiter = ChangeWaiter(table)
        waiter.observe(loader)
        table.resize(columns: 80, rows: rows)
        table.start()
        await waiter.until { !table.items.isEmpty }
        return (table, waiter)
    }

    @Test func thePoolDoesNotGrowWithTheRowsScrolledThrough() async {
        let loader = FakeThumbnailLoader()
        let (table, waiter) = await makeTable(count: 1000, loader: loader)
        table.update()
        let slotsAtStart = table.pool.slots.count
        let onScreen = table.visibleRows.count
        #expect(slotsAtStart == onScreen + table.pool.margin)
        for _ in 0..<220 {
            table.page(by: 1)
            table.update()
            await waiter.until { table.items.count > table.visibleRows.upperBound || table.listStatus == .end }
        }
        #expect(table.viewport.selection > 900)
        #expect(table.pool.slots.count == slotsAtStart)
        #expect(table.pool.counters.slotReuses > 900)
        #expect(table.pool.counters.wrongPaints == 0)
    }

    @Test func reusingASlotCancelsItsLoad() async {
        let loader = FakeThumbnailLoader(gated: true)
        let (table, waiter) = await makeTable(count: 300, loader: loader)
        table.update()
        let firstScreen = table.visibleRows
        #expect(await waiter.until { loader.pending.count == firstScreen.count })
        // Jump far: every slot is rebound to a new row, so every first-screen load is cancelled.
        table.page(by: 1)
        table.page(by: 1)
        table.page(by: 1)
        table.update()
        #expect(table.pool.counters.loadsCancelled >= firstScreen.count - table.pool.margin)
        #expect(loader.cancelled >= firstScreen.count - table.pool.margin)
    }

    @Test func lateResultsNeverPaintTheWrongRow() async {
        let loader = FakeThumbnailLoader(gated: true)
        let (table, waiter) = await makeTable(count: 300, loader: loader)
        // Scroll through several screens while every load is held back.
        for _ in 0..<6 {
            table.update()
            table.page(by: 1)
        }
        table.update()
        let onScreen = table.visibleRows.count
        #expect(await waiter.until { loader.pending.count >= onScreen })
        // Let every held load finish, newest first, the order most likely to paint a stale picture.
        loader.releaseAll(reversed: true)
        await waiter.until { !table.isAnimating }
        let frame = table.nextFrame()
        var y = 1
        for row in table.visibleRows {
            if y + 2 < 1 + table.listHeight {
                #expect(frame.line(y).contains("#\(row)."), "row \(row): \(frame.line(y))")
            }
            y += table.rowHeight(row)
        }
        #expect(table.pool.counters.wrongPaints == 0)
    }

    @Test func aFailedThumbnailShowsTheFailureGlyphAndItsReasonInTheDetailPane() async {
        let loader = FakeThumbnailLoader(failing: ["1.png"])
        let (table, waiter) = await makeTable(count: 10, loader: loader)
        table.update()
        await waiter.until { !table.isAnimating }
        let lines = table.nextFrame().lines
        // Row 1 starts on line 5; its block shows ✗ in the middle line and "failed" under it.
        #expect(lines[5...7].joined().contains("✗"))
        #expect(lines[5...7].joined().contains("failed"))
        table.move(by: 1)
        table.resize(columns: 120, rows: 24)
        table.openSelected()
        let detail = table.nextFrame().lines.joined(separator: "\n")
        #expect(detail.contains("Thumbnail state: failed: not a PNG file: 1.png"))
    }

    @Test func retryLoadsTheSelectedThumbnailAgain() async {
        let loader = FakeThumbnailLoader(gated: true)
        let (table, waiter) = await makeTable(count: 10, loader: loader)
        table.update()
        #expect(await waiter.until { !loader.pending.isEmpty })
        let before = loader.started.count
        table.retrySelected()
        #expect(await waiter.until { loader.started.count == before + 1 })
        #expect(loader.started.last?.lastPathComponent == "0.png")
    }

    @Test func scrollingBackReusesTheSlotThatStillHoldsTheRow() async {
        let loader = FakeThumbnailLoader()
        let (table, waiter) = await makeTable(count: 100, loader: loader)
        table.update()
        await waiter.until { !table.isAnimating }
        let started = loader.started.count
        table.move(by: 1)
        table.move(by: -1)
        table.update()
        // Nothing scrolled off the screen and back: no new loads.
        #expect(loader.started.count == started)
    }
}
