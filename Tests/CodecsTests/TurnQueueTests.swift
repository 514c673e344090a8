import Codecs
import Synchronization
import Testing

/// The line `DecodeMemoryBudget` and `LongDecodeLane` share: first come, first served; a cancelled waiter leaves it
/// and is never resumed again; what is given back lets the next ones in.
@Suite struct TurnQueueTests {
    /// The names of the tasks whose share was taken, in the order they got it.
    final class Entries: Sendable {
        private let names = Mutex<[String]>([])
        func add(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    /// Starts a task that takes `share`, notes its name, and gives back at once when `handsOn` is set; returns once
    /// the task waits in the line (`waiting` of them in all).
    func waiter(_ name: String, share: Int = 1, in line: TurnQueue, entries: Entries, handsOn: Bool,
                waiting: Int) async -> Task<Void, any Error> {
        let task = Task {
            try await line.take(share)
            entries.add(name)
            if handsOn { line.give(back: share) }
        }
        while line.waitingCount < waiting { await Task.yield() }
        return task
    }

    @Test func sharesAreServedInArrivalOrder() async throws {
        let line = TurnQueue(capacity: 1), entries = Entries()
        try await line.take(1)
        var tasks: [Task<Void, any Error>] = []
        for (i, name) in ["a", "b", "c"].enumerated() {
            tasks.append(await waiter(name, in: line, entries: entries, handsOn: true, waiting: i + 1))
        }
        #expect(entries.all.isEmpty)
        line.give(back: 1)
        for task in tasks { try await task.value }
        #expect(entries.all == ["a", "b", "c"])
        #expect(line.counts == (available: 1, waiting: 0))
    }

    @Test func aSmallShareDoesNotOvertakeALargeOne() async throws {
        let line = TurnQueue(capacity: 10), entries = Entries()
        try await line.take(8)
        let large = await waiter("large", share: 5, in: line, entries: entries, handsOn: false, waiting: 1)
        let small = await waiter("small", share: 1, in: line, entries: entries, handsOn: false, waiting: 2)
        #expect(line.counts == (available: 2, waiting: 2), "the small share fits, but waits its turn")
        line.give(back: 8)
        try await large.value
        try await small.value
        #expect(line.counts == (available: 4, waiting: 0))
    }

    @Test func aCancelledWaiterLeavesAndTheNextIsLetIn() async throws {
        let line = TurnQueue(capacity: 1), entries = Entries()
        try await line.take(1)
        let first = await waiter("first", in: line, entries: entries, handsOn: false, waiting: 1)
        let second = await waiter("second", in: line, entries: entries, handsOn: false, waiting: 2)
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(line.counts == (available: 0, waiting: 1))
        // Given back once: were the cancelled waiter still in the line (or resumed a second time, which traps), the
        // second would not get the unit.
        line.give(back: 1)
        try await second.value
        #expect(entries.all == ["second"])
        #expect(line.counts == (available: 0, waiting: 0))
    }

    @Test func aCancelledHeadLetsInTheSharesBehindIt() async throws {
        let line = TurnQueue(capacity: 10), entries = Entries()
        try await line.take(8)
        let large = await waiter("large", share: 5, in: line, entries: entries, handsOn: false, waiting: 1)
        let small = await waiter("small", share: 2, in: line, entries: entries, handsOn: false, waiting: 2)
        large.cancel()
        await #expect(throws: CancellationError.self) { try await large.value }
        try await small.value
        #expect(entries.all == ["small"])
        #expect(line.counts == (available: 0, waiting: 0))
    }

    @Test func aTaskCancelledBeforeItAsksNeverTakes() async throws {
        let line = TurnQueue(capacity: 1)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await line.take(1)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(line.counts == (available: 1, waiting: 0))
    }
}
