import Cells
import Foundation
@testable import Pipeline
import TestSupport
import Testing
import TextArt

/// Servers that never answer, or stop mid-body, against the real pipeline over 127.0.0.1: rows on screen still
/// load, because slots are kept for them, stalled prefetches give their slots up, stalls end at the stall timeout,
/// and a cancelled row frees its slot at once.
///
/// The time limits in these tests are far longer than the tests take wherever a limit must not be what lets a row
/// load; a test that passes therefore shows the rows loaded while the stalled requests were still hanging.
@Suite struct StalledDownloadTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized
    let horse: [UInt8]
    let options = TextArtOptions(mode: .ascii, color: .none)

    init() throws {
        horse = try [UInt8](Data(contentsOf: Self.photos.appendingPathComponent("horse.png")))
    }

    func pipeline(stallTimeout: Duration = .seconds(60), preemptsAfter: Duration = .seconds(60),
                  maxDownloads: Int = 6, maxRetries: Int = 2) -> ImagePipeline {
        ImagePipeline(configuration: .init(maxDownloads: maxDownloads, maxDownloadsPerHost: maxDownloads,
                                           limits: LoadLimits(timeout: .seconds(120), stallTimeout: stallTimeout),
                                           retry: RetryPolicy(maxRetries: maxRetries, baseDelay: .milliseconds(10)),
                                           preemptsStalledAfter: preemptsAfter),
                      loader: DataLoader())
    }

    func request(_ url: URL) -> ThumbnailRequest {
        ThumbnailRequest(url: url, size: CellSize(columns: 16, rows: 8), options: options)
    }

    /// 14 URLs that never answer (`/hang/N.png`), half of them silent from the start and half stalled mid-body,
    /// and `good` that answer at once (`/ok/N.png`).
    /// `goodDelay` holds each good answer back, so a test can make rows wait longer than a stall limit.
    func serveHostile(_ server: TestHTTPServer, good: Int,
                      goodDelay: Duration = .zero) -> (hanging: [URL], good: [URL]) {
        for i in 0..<14 {
            server.serve("/hang/\(i).png", i.isMultiple(of: 2) ? .never : .ok(horse).stalled(after: 1_000))
        }
        for i in 0..<good {
            server.serve("/ok/\(i).png", .ok(horse, contentType: "image/png").delayed(by: goodDelay))
        }
        return ((0..<14).map { server.url("/hang/\($0).png") }, (0..<good).map { server.url("/ok/\($0).png") })
    }

    /// Loads every URL at once as a visible row, and checks that each drew a picture.
    func loadAll(_ urls: [URL], visibleIn pipeline: ImagePipeline) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for url in urls {
                group.addTask {
                    let picture = try await pipeline.thumbnail(request(url)).value()
                    #expect(!picture.plainText.isEmpty)
                }
            }
            try await group.waitForAll()
        }
    }

    static func hangingRequests(_ requests: [TestHTTPServer.Request]) -> Int {
        requests.count { $0.path.hasPrefix("/hang/") }
    }

    @Test func prefetchesNeverTakeTheSlotsKeptForVisibleRows() async throws {
        try await TestHTTPServer.with { server in
            let urls = serveHostile(server, good: 2)
            let pipeline = pipeline()

            await pipeline.prefetch(urls.hanging.map(request))
            #expect(await server.waitUntil { Self.hangingRequests($0) >= 4 })

            // No stall or preemption can happen within this test's time: only the kept slots let these load.
            for url in urls.good {
                let picture = try await pipeline.thumbnail(request(url)).value()
                #expect(!picture.plainText.isEmpty)
            }
            #expect(Self.hangingRequests(server.requests) == 4, "prefetches took 4 of the 6 slots, no more")
            #expect(pipeline.counters.snapshot.downloadsPreempted == 0)
            await pipeline.cancelAll()
        }
    }

    @Test func visibleRowsPreemptStalledBatchDownloads() async throws {
        try await TestHTTPServer.with { server in
            // Each good answer takes 600 ms, so the rows beyond the two kept slots wait past the 200 ms stall limit
            // whatever the machine's speed: with instant answers the kept slots served all six before any stall.
            let urls = serveHostile(server, good: 6, goodDelay: .milliseconds(600))
            let pipeline = pipeline(preemptsAfter: .milliseconds(200))

            let batch = urls.hanging.map { url in
                Task { try await pipeline.thumbnail(request(url), priority: .batch).value() }
            }
            #expect(await server.waitUntil { Self.hangingRequests($0) >= 4 })

            // Two rows find kept slots; the other four take the slots of stalled batch downloads.
            try await loadAll(urls.good, visibleIn: pipeline)
            let counts = pipeline.counters.snapshot
            #expect(counts.downloadsPreempted >= 4, "\(counts)")
            #expect(counts.maxDownloadsInFlight <= 6)
            for task in batch { task.cancel() }
            for task in batch { _ = try? await task.value }
        }
    }

    @Test func visibleRowsThatNeverAnswerAreGivenUpAtTheStallTimeout() async throws {
        try await TestHTTPServer.with { server in
            let urls = serveHostile(server, good: 6)
            // 1 s: long enough for a busy machine to send the stalling replies' headers, short enough for 3 rounds.
            let pipeline = pipeline(stallTimeout: .seconds(1), maxRetries: 0)
            let started = ContinuousClock.now

            // The hanging rows ask first, so they hold every slot until they stall.
            let results = await withTaskGroup(of: (URL, Result<Void, any Error>).self) { group in
                for url in urls.hanging + urls.good {
                    group.addTask {
                        do {
                            _ = try await pipeline.thumbnail(request(url)).value()
                            return (url, .success(()))
                        } catch {
                            return (url, .failure(error))
                        }
                    }
                }
                return await group.reduce(into: [URL: Result<Void, any Error>]()) { $0[$1.0] = $1.1 }
            }

            for url in urls.good {
                guard case .success? = results[url] else {
                    Issue.record("\(url.path) did not load: \(String(describing: results[url]))")
                    continue
                }
            }
            for url in urls.hanging {
                guard case .failure(let failure)? = results[url],
                      case .load(.stalled(.seconds(1), let stage, url))? = failure as? PipelineError
                else {
                    Issue.record("\(url.path) did not stall: \(String(describing: results[url]))")
                    continue
                }
                // A silent server is never seen mid-body; one that stalls mid-body is, unless a loaded machine
                // took the whole stall timeout to send its headers.
                let silentFromTheStart = Int(url.deletingPathExtension().lastPathComponent)!.isMultiple(of: 2)
                #expect(stage == .waitingForResponse
                    || (!silentFromTheStart && stage == .body(received: 1_000, expected: horse.count)), "\(url.path)")
            }
            print("StalledDownloadTests: 14 stalled and 6 good visible rows settled in "
                + "\(ContinuousClock.now - started)")
        }
    }

    @Test func visibleRowsThatNeverAnswerTakeTurnsWithTheOtherVisibleRows() async throws {
        try await TestHTTPServer.with { server in
            let urls = serveHostile(server, good: 6)
            // The stall timeout is far away: only taking turns lets the good rows load.
            let pipeline = pipeline(preemptsAfter: .milliseconds(200))

            // The hanging rows ask first, so they take every slot.
            let hanging = urls.hanging.map { url in Task { try await pipeline.thumbnail(request(url)).value() } }
            #expect(await server.waitUntil { Self.hangingRequests($0) >= 6 })
            try await loadAll(urls.good, visibleIn: pipeline)

            #expect(pipeline.counters.snapshot.downloadsPreempted >= 1)
            #expect(pipeline.counters.snapshot.requestsFailed == 0, "no hanging row was given up yet")
            for task in hanging { task.cancel() }
            for task in hanging { await #expect(throws: CancellationError.self) { try await task.value } }
        }
    }

    @Test func cancellingAStalledRowFreesItsSlotAtOnce() async throws {
        try await TestHTTPServer.with { server in
            let urls = serveHostile(server, good: 1)
            let pipeline = pipeline(maxDownloads: 1)

            let stalled = Task { try await pipeline.thumbnail(request(urls.hanging[0])).value() }
            #expect(await server.waitForRequests(to: "/hang/0.png"))
            let waiting = Task { try await pipeline.thumbnail(request(urls.good[0])).value() }
            while await pipeline.downloadQueue.waiting.isEmpty { await Task.yield() }

            let cancelled = ContinuousClock.now
            stalled.cancel()
            #expect(await server.waitForRequests(to: "/ok/0.png"))
            let slotFreed = ContinuousClock.now - cancelled
            _ = try await waiting.value
            await #expect(throws: CancellationError.self) { try await stalled.value }
            #expect(pipeline.counters.snapshot.downloadsCancelled == 1)
            // A figure for the record, not a pass mark.
            print("StalledDownloadTests: cancel to the waiting row's request reaching the server: \(slotFreed)")
        }
    }
}
