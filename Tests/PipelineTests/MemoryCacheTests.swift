import Cells
import Foundation
@testable import Pipeline
import Synchronization
import TestSupport
import Testing
import TextArt

/// The memory caches: rendered thumbnails answered at once, bitmaps and bytes reused, least recently used evicted by cost.
@Suite struct MemoryCacheTests: FakeLoaderPipelineTests {
    let loader = FakeDataLoader()

    @Test func aFinishedThumbnailIsServedFromMemoryAtOnce() async throws {
        let pipeline = pipeline()
        let r = request("1.png")
        #expect(pipeline.thumbnail(r).ready == nil)
        async let first = pipeline.thumbnail(r).value()
        await loader.waitForStarts(1)
        loader.answer()
        let picture = try await first
        #expect(pipeline.thumbnail(r).ready == picture)
        #expect(try await pipeline.thumbnail(r).value() == picture)
        #expect(loader.started.count == 1)
        #expect(pipeline.counters.snapshot.memoryHits == 2)
    }

    @Test func anotherModeReRendersWithoutDownloadingAgain() async throws {
        let pipeline = pipeline()
        let r = request("1.png")
        async let first = pipeline.thumbnail(r).value()
        await loader.waitForStarts(1)
        loader.answer()
        _ = try await first
        var blocks = r
        blocks.options.mode = .blocks
        _ = try await pipeline.thumbnail(blocks).value()
        #expect(loader.started.count == 1)
        #expect(pipeline.counters.snapshot.renders == 2)
    }

    @Test func theLeastRecentlyUsedGoFirstByCost() {
        let cache = MemoryCache<String, Int>(costLimit: 10)
        cache.set(1, for: "a", cost: 4)
        cache.set(2, for: "b", cost: 4)
        #expect(cache.value(for: "a") == 1)
        cache.set(3, for: "c", cost: 4)
        #expect(cache.value(for: "b") == nil, "b was the least recently used")
        #expect(cache.value(for: "a") == 1 && cache.value(for: "c") == 3)
        #expect(cache.totalCost == 8)
        cache.set(4, for: "huge", cost: 11)
        #expect(cache.value(for: "huge") == nil && cache.count == 2)
        cache.removeAll { $0 == "a" }
        #expect(cache.count == 1 && cache.totalCost == 4)
    }
}
