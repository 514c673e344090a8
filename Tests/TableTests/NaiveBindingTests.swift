import Cells
import Foundation
import Items
import Table
import TestSupport
import Testing

/// The naive binding policy of `demo --compare`, the bug on purpose: a reused slot's load is not cancelled and its
/// late result paints the row the slot holds now, counted as a wrong paint. The same scene under `.safe` paints none.
@MainActor
@Suite struct NaiveBindingTests {
    struct Scene {
        let table: TableController
        let loader: FakeThumbnailLoader
        /// The rows wholly on screen after the scroll: the first line of each, and whether its slot says its picture
        /// was loaded for another row.
        let rows: [(row: Int, line: String, slotSaysWrong: Bool)]
    }

    /// Binds a screen with every load held back, scrolls three screens on (every slot reused), lets the rows now on
    /// screen finish first, then the loads of the rows scrolled past: the order in which a late result does harm.
    func lateResultsAfterReuse(policy: SlotBindingPolicy) async -> Scene {
        let loader = FakeThumbnailLoader(gated: true)
        let table = TableController(source: FakeItemSource(count: 300, pageSize: 100), loader: loader,
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3),
                                                         prefetch: false, slotBinding: policy))
        let waiter = ChangeWaiter(table)
        waiter.observe(loader)
        table.resize(columns: 80, rows: 24)
        table.start()
        await waiter.until { !table.items.isEmpty }
        table.update()
        let firstScreen = table.visibleRows.count
        #expect(await waiter.until { loader.pending.count == firstScreen })
        for _ in 0..<3 { table.page(by: 1) }
        table.update()
        let onScreen = table.visibleRows.compactMap(table.itemIndex(forRow:))
        let shownURLs = Set(onScreen.compactMap { table.items[$0].rowImageURL })
        #expect(await waiter.until { Set(loader.pending).isSuperset(of: shownURLs) })

        loader.release(shownURLs)
        #expect(await waiter.until {
            onScreen.allSatisfy { table.pool.slot(forItem: $0)?.paintedItem == $0 }
        })
        loader.releaseAll()
        // Under the naive policy every load whose row lost its slot lands on that slot, now another row's: one wrong
        // paint each. Under the safe policy they were cancelled, and only the slots still bound paint.
        let lostTheirSlot = loader.started.count { url in
            Int(url.deletingPathExtension().lastPathComponent).map { table.pool.slot(forItem: $0) == nil } ?? false
        }
        let expectedWrongPaints = policy == .naive ? lostTheirSlot : 0
        #expect(await waiter.until {
            table.pool.counters.wrongPaints == expectedWrongPaints
                && table.pool.slots.allSatisfy { $0.boundItem == nil || $0.paintedItem != nil }
        })
        let frame = table.nextFrame()
        var rows: [(Int, String, Bool)] = []
        var y = table.listTop
        for row in table.visibleRows where y + 2 < table.listTop + table.listHeight {
            let slot = table.itemIndex(forRow: row).flatMap { table.pool.slot(forItem: $0) }
            rows.append((row, frame.line(y), slot?.paintedItem != slot?.boundItem))
            y += table.rowHeight(row)
        }
        return Scene(table: table, loader: loader, rows: rows)
    }

    @Test func aLateResultPaintsTheRowTheSlotHoldsNowAndIsCounted() async {
        let scene = await lateResultsAfterReuse(policy: .naive)
        let counters = scene.table.pool.counters
        // Nothing was cancelled: the first screen's loads ran to their end and landed on the reused slots.
        #expect(counters.loadsCancelled == 0)
        #expect(scene.loader.cancelled == 0)
        #expect(counters.staleResultsDropped == 0)
        #expect(counters.wrongPaints > 0)
        // The rows on screen show pictures of rows scrolled past, and the slots say so.
        let wrongRows = scene.rows.filter { !$0.line.contains("#\($0.row).") }
        #expect(!wrongRows.isEmpty)
        for (row, line, slotSaysWrong) in scene.rows {
            #expect(slotSaysWrong == !line.contains("#\(row)."), "row \(row): \(line)")
        }
    }

    @Test func theSafePolicyCancelsTheSameLoadsAndPaintsEveryRowItsOwnPicture() async {
        let scene = await lateResultsAfterReuse(policy: .safe)
        let counters = scene.table.pool.counters
        #expect(counters.loadsCancelled > 0)
        #expect(counters.wrongPaints == 0)
        for (row, line, slotSaysWrong) in scene.rows {
            #expect(line.contains("#\(row)."), "row \(row): \(line)")
            #expect(!slotSaysWrong)
        }
    }
}
