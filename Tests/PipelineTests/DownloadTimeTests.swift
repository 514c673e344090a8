import Foundation
@testable import Pipeline
import TestSupport
import Testing

/// How long downloads take, as the prefetch asks: a moving average over downloads that succeeded.
@Suite struct DownloadTimeTests: FakeLoaderPipelineTests {
    let loader = FakeDataLoader()

    @Test func theAverageStartsAtTheFirstDownloadAndMovesAFifthTowardsEachNext() {
        let time = DownloadTime()
        #expect(time.typical == nil)
        time.add(.milliseconds(100))
        #expect(time.typical == .milliseconds(100))
        time.add(.milliseconds(600))
        let seconds = try! #require(time.typical).components
        #expect(abs(Double(seconds.attoseconds) / 1e18 - 0.2) < 1e-9, "100 + (600 - 100) / 5 ms")
    }

    @Test func thePipelineMeasuresItsDownloadsButNotItsFailures() async throws {
        let pipeline = pipeline(retry: RetryPolicy(maxRetries: 0, sleep: { _ in }))
        #expect(pipeline.typicalDownloadTime == nil)
        let failing = Task { try await pipeline.thumbnail(request("gone.png")).value() }
        await loader.waitForStarts(1)
        loader.answer(with: .httpStatus(404, url: URL(string: "http://a.test/gone.png")!, retryAfter: nil))
        _ = try? await failing.value
        #expect(pipeline.typicalDownloadTime == nil, "a failure says nothing of how long images take")
        let clock = ContinuousClock()
        let started = clock.now
        let task = Task { try await pipeline.thumbnail(request("a.png")).value() }
        await loader.waitForStarts(2)
        loader.answer()
        _ = try await task.value
        let typical = try #require(pipeline.typicalDownloadTime)
        #expect(typical <= clock.now - started)
    }
}
