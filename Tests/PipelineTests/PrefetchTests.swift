import Cells
import Foundation
@testable import Pipeline
import Synchronization
import TestSupport
import Testing
import TextArt

/// Prefetch sets: each replaces the last, cancelling what left it.
@Suite struct PrefetchTests: FakeLoaderPipelineTests {
    let loader = FakeDataLoader()

    @Test func aNewPrefetchSetCancelsPrefetchesThatLeftIt() async throws {
        let pipeline = pipeline()
        await pipeline.prefetch([request("1.png"), request("2.png")])
        await loader.waitForStarts(2)
        await pipeline.prefetch([request("2.png"), request("3.png")])
        await loader.waitUntil { $0.cancelled.map(\.lastPathComponent) == ["1.png"] && $0.started.count == 3 }
        loader.answer(request("2.png").url)
        loader.answer(request("3.png").url)
        // A row that becomes visible joins the prefetch of its image instead of starting another download.
        _ = try await pipeline.thumbnail(request("2.png")).value()
        #expect(loader.started.count == 3)
        #expect(pipeline.counters.snapshot.prefetchesCancelled == 1)
    }

    @Test func aPrefetchStartedAgainIsStillCancelledByTheNextSet() async throws {
        let pipeline = pipeline()
        let r = request("1.png")
        await pipeline.prefetch([r])
        await loader.waitForStarts(1)
        await pipeline.prefetch([])
        await loader.waitUntil { $0.cancelled.count == 1 }
        await pipeline.prefetch([r])
        await loader.waitForStarts(2)
        // The first prefetch's end must not make the pipeline forget the second one.
        await pipeline.prefetch([])
        #expect(await loader.waitUntil { $0.cancelled.count == 2 })
        #expect(await pipeline.prefetches.isEmpty)
    }
}
