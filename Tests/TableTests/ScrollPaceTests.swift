import Cells
import Foundation
import TestSupport
import Testing

@testable import Table

/// The scroll's pace, and the table's prefetch by it: a held PgDn warms nothing, the scroll coming to rest asks for
/// a frame and the rest's prefetch warms both sides, a readable pace warms as far ahead as one fetch travels.
@MainActor
@Suite struct ScrollPaceTests {
    @Test func thePaceIsTheRowsPassedInTheLastWindow() {
        let start = ContinuousClock.now
        var pace = ScrollPace()
        pace.record(top: 10, at: start)
        #expect(pace.rowsPerSecond(at: start) == 0, "a first position is no move")
        #expect(pace.restsAt(after: start) == nil)
        for key in 1...9 {
            pace.record(top: 10 + key, at: start + .milliseconds(33 * key))
        }
        let now = start + .milliseconds(300)
        // Nine rows a key apart: eight rows in the 264 ms after the first.
        #expect(abs(pace.rowsPerSecond(at: now) - 8 / 0.264) < 0.01)
        #expect(abs(pace.rowsPerSecond(at: start + .milliseconds(66)) - 1 / 0.033) < 0.01, "fast from the second key")
        #expect(!pace.movingUp)
        #expect(pace.restsAt(after: now) == start + .milliseconds(297) + ScrollPace.window)
        #expect(pace.rowsPerSecond(at: start + .milliseconds(700)) == 0, "at rest a window after the last move")
        pace.record(top: 5, at: start + .milliseconds(800))
        #expect(pace.movingUp)
        #expect(abs(pace.rowsPerSecond(at: start + .milliseconds(800)) - 14 / 0.3) < 0.01, "14 rows up in one move")
        pace.record(top: 5, at: start + .milliseconds(900))
        #expect(pace.restsAt(after: start + .milliseconds(900)) == start + .milliseconds(1100), "staying is no move")
    }

    func table(loader: FakeThumbnailLoader, clock: ManualClock) async -> (TableController, ChangeWaiter) {
        await ChangeWaiter.startedTable(FakeItemSource(count: 500, pageSize: 500), loader: loader, clock: clock)
    }

    func rows(_ urls: [URL]?) -> [Int] {
        (urls ?? []).compactMap { Int($0.deletingPathExtension().lastPathComponent) }
    }

    @Test func aHeldPageDownWarmsNothingAndTheRestWarmsBothSides() async {
        let loader = FakeThumbnailLoader(gated: true)
        loader.latency = .milliseconds(150)
        let clock = ManualClock()
        let (table, waiter) = await table(loader: loader, clock: clock)
        var changes = 0
        table.onChange {
            changes += 1
            waiter.poke()
        }
        table.update()
        for key in 1...10 {
            clock.advance(by: .milliseconds(33))
            table.page(by: 1)
            table.update()
            // The first key is one press: it warms the next screen, and those rows stay wanted until the screen
            // reaches them. From the second key on, the pace is 30 screens a second.
            if key > 2 {
                #expect(rows(loader.prefetched.last) == Array(table.visibleRows), "key \(key): the screen alone")
            }
        }
        let visible = table.visibleRows
        clock.advance(by: .seconds(1))
        let before = changes
        #expect(await waiter.until { changes > before }, "coming to rest asks for a frame")
        table.update()
        let n = visible.count
        #expect(rows(loader.prefetched.last)
                == Array(visible) + Array(visible.upperBound..<visible.upperBound + n)
                + Array((visible.lowerBound - n..<visible.lowerBound).reversed()))
    }

    @Test func aReadablePaceWarmsAsFarAheadAsOneFetchTravels() async {
        let loader = FakeThumbnailLoader(gated: true)
        loader.latency = .milliseconds(150)
        let clock = ManualClock()
        let (table, _) = await table(loader: loader, clock: clock)
        table.update()
        for _ in 1...60 {
            clock.advance(by: .milliseconds(33))
            table.move(by: 1)
            table.update()
        }
        let visible = table.visibleRows
        let ahead = rows(loader.prefetched.last).filter { $0 >= visible.upperBound }
        #expect(!ahead.isEmpty)
        #expect(ahead.max()! >= visible.upperBound + visible.count, "beyond the next screen")
        #expect(rows(loader.prefetched.last).allSatisfy { $0 >= visible.lowerBound }, "nothing behind")
    }

    @Test func aHeldPageDownCancelsTheLoadsOfRowsItFliesPast() async {
        let loader = FakeThumbnailLoader(gated: true)
        let clock = ManualClock()
        let (table, waiter) = await table(loader: loader, clock: clock)
        table.update()
        let first = table.visibleRows
        #expect(await waiter.until { loader.started.count >= first.count })
        // Half a screen a key, 30 keys a second: each row is on screen for about 66 ms. Two keys pass the first
        // screen, and the pool has slots to spare: only flying past frees theirs.
        let half = first.count / 2
        table.move(by: first.count - 2)
        table.update()
        #expect(table.visibleRows == first, "the selection is at the bottom of the screen")
        clock.advance(by: .seconds(1))
        for _ in 1...2 {
            clock.advance(by: .milliseconds(33))
            table.move(by: half)
            table.update()
        }
        let passed = first.lowerBound..<table.visibleRows.lowerBound
        #expect(passed.count == 2 * half)
        #expect(passed.allSatisfy { table.pool.slot(forItem: $0) == nil }, "the slots of the rows flown past are free")
        #expect(await waiter.until { loader.cancelled >= passed.count }, "and their loads cancelled")
        #expect(table.pool.log.entries.contains { $0.contains("flown past") })
        #expect(table.pool.counters.wrongPaints == 0)
    }

    @Test func aReadablePaceLetsTheLoadsOfRowsJustPassedFinish() async {
        let loader = FakeThumbnailLoader(gated: true)
        let clock = ManualClock()
        let (table, waiter) = await table(loader: loader, clock: clock)
        table.update()
        let top = table.visibleRows.lowerBound
        #expect(await waiter.until { loader.started.count >= table.visibleRows.count })
        for _ in 1...8 {
            clock.advance(by: .milliseconds(100))
            table.move(by: 1)
            table.update()
        }
        #expect(table.visibleRows.lowerBound > top, "the first row has left the screen")
        #expect(table.pool.slot(forItem: top)?.isLoading == true, "its load goes on in its slot")
        #expect(loader.cancelled == 0)
    }
}
