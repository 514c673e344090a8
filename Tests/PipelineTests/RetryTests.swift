import Cells
import Foundation
@testable import Pipeline
import Synchronization
import TestSupport
import Testing
import TextArt

/// Failed downloads: which are retried, how long after, and how many times.
@Suite struct RetryTests: FakeLoaderPipelineTests {
    let loader = FakeDataLoader()

    @Test func a503WithRetryAfterIsRetriedAfterTheWaitTheServerAsked() async throws {
        let waits = Mutex<[Duration]>([])
        let pipeline = pipeline(retry: RetryPolicy(sleep: { d in waits.withLock { $0.append(d) } }))
        let url = request("1.png").url
        async let result = pipeline.thumbnail(request("1.png")).value()
        await loader.waitForStarts(1)
        loader.answer(with: .httpStatus(503, url: url, retryAfter: .seconds(3)))
        await loader.waitForStarts(2)
        loader.answer(with: .connection("reset", url: url))
        await loader.waitForStarts(3)
        loader.answer()
        #expect(Self.label(try await result) == "1.png")
        #expect(pipeline.counters.snapshot.retries == 2)
        let recorded = waits.withLock { $0 }
        #expect(recorded.first == .seconds(3))
        #expect(recorded.count == 2 && recorded[1] >= .milliseconds(500) && recorded[1] <= .seconds(1))
    }

    @Test func retriesStopAfterTwo() async throws {
        let pipeline = pipeline()
        let url = request("1.png").url
        let result = Task { try await pipeline.thumbnail(request("1.png")).value() }
        for attempt in 1...3 {
            await loader.waitForStarts(attempt)
            loader.answer(with: .httpStatus(500, url: url, retryAfter: nil))
        }
        await #expect(throws: PipelineError.load(.httpStatus(500, url: url, retryAfter: nil))) { try await result.value }
        #expect(loader.started.count == 3)
    }

    @Test func a404AndADecodeErrorAreNotRetried() async throws {
        let pipeline = pipeline()
        let missing = request("missing.png")
        let notFound = Task { try await pipeline.thumbnail(missing).value() }
        await loader.waitForStarts(1)
        loader.answer(with: .httpStatus(404, url: missing.url, retryAfter: nil))
        await #expect(throws: PipelineError.self) { try await notFound.value }
        async let corrupt = pipeline.thumbnail(request("bad.png")).value()
        await loader.waitForStarts(2)
        loader.answer()
        do {
            _ = try await corrupt
            Issue.record("a corrupt image decoded")
        } catch let error as PipelineError {
            #expect(error.description == "http://a.test/bad.png: the PNG data is corrupt: not a picture"
                    || error.description.hasPrefix("http://a.test/bad.png: "))
        }
        #expect(loader.started.count == 2)
        #expect(pipeline.counters.snapshot.retries == 0)
        #expect(pipeline.counters.snapshot.requestsFailed == 2)
    }

    @Test func backoffDoublesWithJitterAndHonoursRetryAfter() {
        let url = URL(string: "http://a.test/x")!
        let policy = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(10), random: { 0.999 })
        let error = LoadError.connection("reset", url: url)
        #expect(policy.delay(beforeRetry: 1, after: error)! <= .seconds(1))
        #expect(policy.delay(beforeRetry: 2, after: error)! > .seconds(1.9))
        #expect(policy.delay(beforeRetry: 3, after: error) == nil, "at most two retries")
        #expect(policy.delay(beforeRetry: 1, after: .httpStatus(429, url: url, retryAfter: .seconds(60))) == .seconds(10))
        #expect(policy.delay(beforeRetry: 1, after: .httpStatus(404, url: url, retryAfter: nil)) == nil)
    }
}
