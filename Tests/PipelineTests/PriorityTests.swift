import Cells
import Foundation
@testable import Pipeline
import Synchronization
import TestSupport
import Testing
import TextArt

/// Download slots: visible rows first, within the total and per-host limits.
@Suite struct PriorityTests: FakeLoaderPipelineTests {
    let loader = FakeDataLoader()

    @Test func visibleRowsDownloadBeforePrefetches() async throws {
        let pipeline = pipeline(maxDownloads: 1)
        let first = Task { try await pipeline.thumbnail(request("first.png")).value() }
        await loader.waitForStarts(1)
        let prefetch = Task { try await pipeline.thumbnail(request("prefetch.png"), priority: .prefetch).value() }
        let batch = Task { try await pipeline.thumbnail(request("batch.png"), priority: .batch).value() }
        let visible = Task { try await pipeline.thumbnail(request("visible.png")).value() }
        // All three wait for the one download slot; wait until they are queued.
        while await pipeline.downloadQueue.waiting.count < 3 { await Task.yield() }
        for expected in ["visible.png", "batch.png", "prefetch.png"] {
            loader.answer()
            let count = loader.started.count + 1
            await loader.waitForStarts(count)
            #expect(loader.started.last?.lastPathComponent == expected)
        }
        loader.answer()
        for task in [first, prefetch, batch, visible] { _ = try await task.value }
        #expect(pipeline.counters.snapshot.maxDownloadsInFlight == 1)
    }

    @Test func thePerHostLimitHoldsWhileOtherHostsProceed() async throws {
        let pipeline = pipeline(maxDownloads: 6, perHost: 2)
        let tasks = (1...3).map { i in Task { try await pipeline.thumbnail(request("\(i).png", host: "one.test")).value() } }
        await loader.waitForStarts(2)
        let other = Task { try await pipeline.thumbnail(request("x.png", host: "two.test")).value() }
        await loader.waitForStarts(3)
        #expect(loader.started.map { $0.host! }.sorted() == ["one.test", "one.test", "two.test"])
        loader.answer(URL(string: "http://two.test/x.png")!)
        _ = try await other.value
        loader.answer()
        await loader.waitForStarts(4)
        loader.answer()
        loader.answer()
        for task in tasks { _ = try await task.value }
    }

    @Test func prefetchesNeverHoldTheReservedSlotsButOneJoinedByAVisibleRowMakesRoom() async throws {
        // Six slots, two kept for rows on screen: four prefetches run, the fifth waits.
        let pipeline = pipeline(maxDownloads: 6)
        var tasks = (1...5).map { i in
            Task { try await pipeline.thumbnail(request("\(i).png"), priority: .prefetch).value() }
        }
        await loader.waitForStarts(4)
        while await pipeline.downloadQueue.waiting.count < 1 { await Task.yield() }
        #expect(loader.started.count == 4)
        // A row on screen asks for what the first prefetch fetches: that download is now the row's, and the waiting
        // prefetch takes the place it left.
        let first = try #require(loader.started.first?.lastPathComponent)
        tasks.append(Task { try await pipeline.thumbnail(request(first)).value() })
        await loader.waitForStarts(5)
        #expect(Set(loader.started.map(\.lastPathComponent)) == Set((1...5).map { "\($0).png" }))
        // Five running, four of them prefetches: another prefetch waits although a slot is free; a row on screen
        // takes it.
        tasks.append(Task { try await pipeline.thumbnail(request("6.png"), priority: .prefetch).value() })
        while await pipeline.downloadQueue.waiting.count < 1 { await Task.yield() }
        #expect(loader.started.count == 5)
        tasks.append(Task { try await pipeline.thumbnail(request("7.png")).value() })
        await loader.waitForStarts(6)
        #expect(loader.started.last?.lastPathComponent == "7.png")
        loader.answerEverything()
        for task in tasks { _ = try await task.value }
        #expect(pipeline.counters.snapshot.maxDownloadsInFlight == 6)
    }
}
