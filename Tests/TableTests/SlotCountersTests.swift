import Foundation
import Table
import TestSupport
import Testing

/// The slots' counters as the overlay and the stats file read them: one snapshot, encodable, named as shown.
@MainActor
@Suite struct SlotCountersTests {
    @Test func theSnapshotCountsReusesAndEncodesUnderTheNamesTheOverlayShows() async throws {
        let (table, waiter) = await ChangeWaiter.startedTable()
        table.update()
        #expect(await waiter.until { !table.isAnimating })
        // A screen down: the rows that scroll in take the free slots, then reuse those of rows that left.
        table.page(by: 1)
        table.update()
        #expect(await waiter.until { !table.isAnimating })

        let snapshot = table.slotCounters
        #expect(snapshot.slots == table.pool.slots.count)
        #expect(snapshot.slotReuses > 0)
        #expect(snapshot.loadsStarted == table.pool.counters.loadsStarted)
        #expect(snapshot.wrongPaints == 0)
        #expect(table.overlayCounters.prefix(snapshot.named.count).map(\.name) == snapshot.named.map(\.name))

        let data = try JSONEncoder().encode(snapshot)
        #expect(try JSONDecoder().decode(SlotCounters.Snapshot.self, from: data) == snapshot)
        // Snake-case keys are the names the overlay and the stats file use.
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let keys = try JSONSerialization.jsonObject(with: encoder.encode(snapshot)) as? [String: Int]
        for (name, value) in snapshot.named {
            #expect(keys?[name] == value, "\(name)")
        }
    }
}
