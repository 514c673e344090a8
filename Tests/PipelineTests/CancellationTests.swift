import Cells
import Foundation
@testable import Pipeline
import Synchronization
import TestSupport
import Testing
import TextArt

/// A subscriber that leaves gets CancellationError; the work stops when the last one leaves.
@Suite struct CancellationTests: FakeLoaderPipelineTests {
    let loader = FakeDataLoader()

    @Test func cancellingOneSubscriberLeavesTheOtherRunning() async throws {
        let pipeline = pipeline()
        let r = request("1.png")
        let leaving = Task { try await pipeline.thumbnail(r).value() }
        let staying = Task { try await pipeline.thumbnail(r).value() }
        await loader.waitForStarts(1)
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        #expect(loader.cancelled.isEmpty, "the download goes on for the other subscriber")
        loader.answer()
        #expect(Self.label(try await staying.value) == "1.png")
    }

    @Test func whenTheLastSubscriberLeavesTheDownloadIsCancelled() async throws {
        let pipeline = pipeline()
        let r = request("1.png")
        let a = Task { try await pipeline.thumbnail(r).value() }
        let b = Task { try await pipeline.thumbnail(r).value() }
        await loader.waitForStarts(1)
        a.cancel()
        b.cancel()
        await loader.waitUntil { $0.cancelled.count == 1 }
        await #expect(throws: CancellationError.self) { try await a.value }
        await #expect(throws: CancellationError.self) { try await b.value }
        #expect(pipeline.counters.snapshot.requestsCancelled == 2)
        #expect(pipeline.counters.snapshot.renders == 0)
    }
}
