import Cells
import Foundation
@testable import Pipeline
import Synchronization
import TestSupport
import Testing
import TextArt

@Suite struct ImagePipelineTests {
    let loader = FakeDataLoader()

    func pipeline(maxDownloads: Int = 6, perHost: Int = 6, retry: RetryPolicy = RetryPolicy(sleep: { _ in }),
                  diskCache: DiskCache? = nil) -> ImagePipeline {
        ImagePipeline(configuration: .init(maxDownloads: maxDownloads, maxDownloadsPerHost: perHost, retry: retry),
                      loader: loader, diskCache: diskCache, processing: .fake)
    }

    func request(_ name: String, host: String = "a.test", columns: Int = 8, rows: Int = 2) -> ThumbnailRequest {
        ThumbnailRequest(url: URL(string: "http://\(host)/\(name)")!, size: CellSize(columns: columns, rows: rows),
                         options: TextArtOptions(mode: .ascii, color: .none))
    }

    static func label(_ cells: CellBuffer) -> String {
        String(cells.plainText.prefix { $0 != "\n" }.reversed().drop { $0 == "." }.reversed())
    }

    @Test func twoRequestsForOneImageShareOneDownloadAndOneRender() async throws {
        let pipeline = pipeline()
        let r = request("1.png")
        async let first = pipeline.thumbnail(r)
        async let second = pipeline.thumbnail(r, priority: .prefetch)
        await loader.waitForStarts(1)
        loader.answer()
        let (a, b) = try await (first, second)
        #expect(Self.label(a) == "1.png" && a == b)
        #expect(loader.started.count == 1)
        let counts = pipeline.counters.snapshot
        #expect(counts.coalesced == 1 && counts.renders == 1 && counts.decodes == 1)
    }

    @Test func twoSizesOfOneImageShareTheDownload() async throws {
        let pipeline = pipeline()
        async let small = pipeline.thumbnail(request("1.png", columns: 6, rows: 2))
        async let large = pipeline.thumbnail(request("1.png", columns: 8, rows: 4))
        await loader.waitForStarts(1)
        loader.answer()
        let (a, b) = try await (small, large)
        #expect(a.width == 6 && b.width == 8)
        #expect(loader.started.count == 1)
    }

    @Test func cancellingOneSubscriberLeavesTheOtherRunning() async throws {
        let pipeline = pipeline()
        let r = request("1.png")
        let leaving = Task { try await pipeline.thumbnail(r) }
        let staying = Task { try await pipeline.thumbnail(r) }
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
        let a = Task { try await pipeline.thumbnail(r) }
        let b = Task { try await pipeline.thumbnail(r) }
        await loader.waitForStarts(1)
        a.cancel()
        b.cancel()
        await loader.waitUntil { $0.cancelled.count == 1 }
        await #expect(throws: CancellationError.self) { try await a.value }
        await #expect(throws: CancellationError.self) { try await b.value }
        #expect(pipeline.counters.snapshot.requestsCancelled == 2)
        #expect(pipeline.counters.snapshot.renders == 0)
    }

    @Test func aFinishedThumbnailIsServedFromMemoryAtOnce() async throws {
        let pipeline = pipeline()
        let r = request("1.png")
        #expect(pipeline.cachedThumbnail(r) == nil)
        async let first = pipeline.thumbnail(r)
        await loader.waitForStarts(1)
        loader.answer()
        let picture = try await first
        #expect(pipeline.cachedThumbnail(r) == picture)
        #expect(try await pipeline.thumbnail(r) == picture)
        #expect(loader.started.count == 1)
        #expect(pipeline.counters.snapshot.memoryHits == 2)
    }

    @Test func anotherModeReRendersWithoutDownloadingAgain() async throws {
        let pipeline = pipeline()
        let r = request("1.png")
        async let first = pipeline.thumbnail(r)
        await loader.waitForStarts(1)
        loader.answer()
        _ = try await first
        var blocks = r
        blocks.options.mode = .blocks
        _ = try await pipeline.thumbnail(blocks)
        #expect(loader.started.count == 1)
        #expect(pipeline.counters.snapshot.renders == 2)
    }

    @Test func visibleRowsDownloadBeforePrefetches() async throws {
        let pipeline = pipeline(maxDownloads: 1)
        let first = Task { try await pipeline.thumbnail(request("first.png")) }
        await loader.waitForStarts(1)
        let prefetch = Task { try await pipeline.thumbnail(request("prefetch.png"), priority: .prefetch) }
        let batch = Task { try await pipeline.thumbnail(request("batch.png"), priority: .batch) }
        let visible = Task { try await pipeline.thumbnail(request("visible.png")) }
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
        let tasks = (1...3).map { i in Task { try await pipeline.thumbnail(request("\(i).png", host: "one.test")) } }
        await loader.waitForStarts(2)
        let other = Task { try await pipeline.thumbnail(request("x.png", host: "two.test")) }
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

    @Test func a503WithRetryAfterIsRetriedAfterTheWaitTheServerAsked() async throws {
        let waits = Mutex<[Duration]>([])
        let pipeline = pipeline(retry: RetryPolicy(sleep: { d in waits.withLock { $0.append(d) } }))
        let url = request("1.png").url
        async let result = pipeline.thumbnail(request("1.png"))
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
        let result = Task { try await pipeline.thumbnail(request("1.png")) }
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
        let notFound = Task { try await pipeline.thumbnail(missing) }
        await loader.waitForStarts(1)
        loader.answer(with: .httpStatus(404, url: missing.url, retryAfter: nil))
        await #expect(throws: PipelineError.self) { try await notFound.value }
        async let corrupt = pipeline.thumbnail(request("bad.png"))
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

    @Test func aNewPrefetchSetCancelsPrefetchesThatLeftIt() async throws {
        let pipeline = pipeline()
        await pipeline.prefetch([request("1.png"), request("2.png")])
        await loader.waitForStarts(2)
        await pipeline.prefetch([request("2.png"), request("3.png")])
        await loader.waitUntil { $0.cancelled.map(\.lastPathComponent) == ["1.png"] && $0.started.count == 3 }
        loader.answer(request("2.png").url)
        loader.answer(request("3.png").url)
        // A row that becomes visible joins the prefetch of its image instead of starting another download.
        _ = try await pipeline.thumbnail(request("2.png"))
        #expect(loader.started.count == 3)
        #expect(pipeline.counters.snapshot.prefetchesCancelled == 1)
    }
}

extension ImagePipelineTests {
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

@Suite struct MemoryCacheTests {
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

@Suite struct RetryPolicyTests {
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
