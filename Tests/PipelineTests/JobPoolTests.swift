@testable import Pipeline
import Synchronization
import Testing

/// The generic job pool under both the render jobs and the downloads: sharing, priority, leaving, late awaiting.
@Suite struct JobPoolTests {
    @Test func equalKeysShareOneJobAsUrgentAsItsMostUrgentSubscriber() async throws {
        let pool = JobPool<String, Int>()
        let (release, releasing) = AsyncStream<Int>.makeStream()
        let runs = Mutex(0)
        let work: @Sendable () async throws -> Int = {
            runs.withLock { $0 += 1 }
            for await n in release { return n }
            throw CancellationError()
        }
        let (a, aJoined) = pool.subscribe("k", priority: .prefetch, work: work)
        let (b, bJoined) = pool.subscribe("k", priority: .visible, work: work)
        #expect(!aJoined && bJoined)
        #expect(pool.priority(of: "k") == .visible)
        async let first = a.value()
        async let second = b.value()
        releasing.yield(7)
        #expect(try await first == 7)
        #expect(try await second == 7)
        #expect(runs.withLock { $0 } == 1)
        #expect(pool.priority(of: "k") == nil, "an ended job is no longer joined")
    }

    @Test func theJobIsCancelledWhenItsLastSubscriberLeaves() async throws {
        let pool = JobPool<String, Int>()
        let (ended, ending) = AsyncStream<Void>.makeStream()
        let work: @Sendable () async throws -> Int = {
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                ending.yield()
                throw error
            }
            return 0
        }
        let (a, _) = pool.subscribe("k", priority: .visible, work: work)
        let (b, _) = pool.subscribe("k", priority: .prefetch, work: work)
        let leaving = Task { try await a.value() }
        let staying = Task { try await b.value() }
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        #expect(pool.priority(of: "k") == .prefetch, "the job goes on for the other subscriber, at its priority")
        staying.cancel()
        await #expect(throws: CancellationError.self) { try await staying.value }
        #expect(pool.priority(of: "k") == nil)
        for await _ in ended { break }
        let (_, joined) = pool.subscribe("k", priority: .visible) { 1 }
        #expect(!joined, "a new subscriber starts afresh instead of joining the cancelled job")
    }

    @Test func aSubscriberThatAwaitsAfterTheJobEndedGetsItsResult() async throws {
        let pool = JobPool<String, Int>()
        let (subscription, _) = pool.subscribe("k", priority: .visible) { 5 }
        while pool.priority(of: "k") != nil { await Task.yield() }
        #expect(try await subscription.value() == 5)
    }
}
