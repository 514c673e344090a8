import Cells
import Foundation
@testable import Pipeline
import Synchronization
import TestSupport
import Testing
import TextArt

/// Equal requests share one job: one download per URL, one decode and render per request.
@Suite struct CoalescingTests: FakeLoaderPipelineTests {
    let loader = FakeDataLoader()

    @Test func twoRequestsForOneImageShareOneDownloadAndOneRender() async throws {
        let pipeline = pipeline()
        let r = request("1.png")
        async let first = pipeline.thumbnail(r).value()
        async let second = pipeline.thumbnail(r, priority: .prefetch).value()
        await loader.waitForStarts(1)
        loader.answer()
        let (a, b) = try await (first, second)
        #expect(Self.label(a) == "1.png" && a == b)
        #expect(loader.started.count == 1)
        let counts = pipeline.counters.snapshot
        #expect(counts.coalesced == 1 && counts.renders == 1 && counts.decodes == 1)
    }

    @Test func aLoadAwaitedAfterAnEqualJobFinishedTakesItsResultInsteadOfRenderingAgain() async throws {
        let pipeline = pipeline()
        let r = request("1.png")
        // Asked while nothing is cached: pending. An equal request then runs the whole job before this one is awaited
        // (at start-up, a slot and the prefetch of the same row).
        let early = pipeline.thumbnail(r)
        guard case .pending = early else {
            Issue.record("nothing was cached yet")
            return
        }
        async let other = pipeline.thumbnail(r, priority: .prefetch).value()
        await loader.waitForStarts(1)
        loader.answer()
        let done = try await other
        let cells = try await early.value()
        #expect(cells == done)
        let counts = pipeline.counters.snapshot
        #expect(counts.renders == 1 && counts.decodes == 1, "one render, not a second for the late await")
        #expect(counts.memoryHits == 1)
        #expect(loader.started.count == 1)
    }

    @Test func twoSizesOfOneImageShareTheDownload() async throws {
        let pipeline = pipeline()
        async let small = pipeline.thumbnail(request("1.png", columns: 6, rows: 2)).value()
        async let large = pipeline.thumbnail(request("1.png", columns: 8, rows: 4)).value()
        await loader.waitForStarts(1)
        loader.answer()
        let (a, b) = try await (small, large)
        #expect(a.width == 6 && b.width == 8)
        #expect(loader.started.count == 1)
    }
}
