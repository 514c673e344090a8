import Cells
import App
import Foundation
import Items
import Pipeline
import Table
import TestSupport
import TextArt

// `Bench scroll [ROWS [j|pgdn]]`: scrolling ROWS rows (default 2,000) at 30 keys a second against a real HTTP server on
// 127.0.0.1 that answers every image after 150 ms. Every 60 keys the scrolling pauses until the screen settles, and
// the time from the pause to each visible row's thumbnail being painted is one sample.
//
// Three configurations in one run, side by side: ThumbTable as shipped; the same without prefetch; and the anchor,
// the classic table-view bug fixed only halfway: late results are dropped, but requests are never cancelled, so
// every download a row started runs to the end.

@MainActor
func runScrollBenchmark(rows: Int, keys: String? = nil) async {
    print("scroll: \(rows) rows at 30 keys/s, images after 150 ms on 127.0.0.1, a 100x30 screen, thumbnails 12x5")
    let server: TestHTTPServer
    do {
        server = try await TestHTTPServer.start(latency: .milliseconds(150) ... .milliseconds(150))
        let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Resources/demo/photos").standardized
        let names = ["astronaut.png", "camera.png", "chelsea.png", "coffee.png", "coins.png", "horse.png",
                     "hubble_deep_field.jpg", "rocket.jpg"]
        let bodies = try names.map { try [UInt8](Data(contentsOf: photos.appendingPathComponent($0))) }
        for row in 0..<(rows + 100) { server.serve("/img/\(row)", .ok(bodies[row % bodies.count])) }
    } catch {
        print("scroll: cannot start the test server: \(error)")
        return
    }
    let configurations: [(String, Bool, Bool)] = [
        ("ThumbTable", true, true), ("no prefetch", false, true), ("anchor: no cancel", false, false),
    ]
    let styles = [("j (one row a key)", false), ("PgDn (one screen a key)", true)]
        .filter { keys == nil || (keys == "pgdn") == $0.1 }
    for (style, page) in styles {
        print("  keys: \(style)")
        var results: [(String, ScrollBench.Result)] = []
        for (name, prefetch, cancels) in configurations {
            results.append((name, await ScrollBench.run(rows: rows, server: server, prefetch: prefetch,
                                                        cancels: cancels, paging: page)))
        }
        report(results)
    }
    await server.stop()
}

@MainActor
func report(_ results: [(String, ScrollBench.Result)]) {
    print("  configuration        started  cancelled  prefetches  prefetches  downloaded   discarded   max in"
          + "  settle→painted ms")
    print("                       requests  requests     started   cancelled        MB  of downloaded  flight"
          + "     p50     p95")
    let anchor = results.last!.1
    for (name, r) in results {
        let pad = name.padding(toLength: 20, withPad: " ", startingAt: 0)
        print("  \(pad) " + String(format: "%8d  %9d  %10d  %10d  %9.1f  %11.1f%%  %6d  %6.0f  %6.0f",
                                   r.started, r.cancelled, r.prefetchesStarted, r.prefetchesCancelled,
                                   r.downloadedMB, r.discardedPercent, r.maxInFlight, r.p50, r.p95))
    }
    for (name, r) in results.dropLast() {
        print("  \(name): downloads \(String(format: "%.2f", r.downloadedMB / max(0.001, anchor.downloadedMB)))x the anchor's"
              + ", settle p95 \(String(format: "%.2f", r.p95 / max(0.001, anchor.p95)))x")
    }
}

@MainActor
enum ScrollBench {
    struct Result {
        var started = 0, cancelled = 0, prefetchesStarted = 0, prefetchesCancelled = 0, maxInFlight = 0
        var downloadedMB = 0.0, discardedPercent = 0.0
        var p50 = 0.0, p95 = 0.0
    }

    /// Items numbered 0..<count, 50 a page, each with its own image URL on the server.
    struct NumberedSource: ItemSource {
        let count: Int
        let server: URL
        var name: String { "Bench" }
        var attribution: String { "All images from the bench server" }
        var firstPage: PageCursor { .number(0) }
        func page(at cursor: PageCursor) async throws -> ItemPage {
            guard case .number(let n) = cursor else { throw ItemSourceError("no such page") }
            let range = (n * 50)..<min(count, n * 50 + 50)
            let items = range.map { Item(id: "\($0)", title: "Row \($0)", subtitle: "bench",
                                         imageURL: server.appendingPathComponent("img/\($0)")) }
            return ItemPage(items: items, next: range.upperBound < count ? .number(n + 1) : nil)
        }
    }

    /// The anchor's loader: a download, once started, runs to its end whatever happens to the row that asked.
    struct NeverCancelled: DataLoading {
        let base: any DataLoading
        func load(_ url: URL, limits: LoadLimits, received: @escaping @Sendable (Int) -> Void) async throws -> LoadedData {
            let base = self.base
            return try await Task.detached { try await base.load(url, limits: limits, received: received) }.value
        }
    }

    static func run(rows: Int, server: TestHTTPServer, prefetch: Bool, cancels: Bool, paging: Bool) async -> Result {
        let loader: any DataLoading = cancels ? DataLoader() : NeverCancelled(base: DataLoader())
        let pipeline = ImagePipeline(configuration: .init(), loader: loader)
        let table = TableController(
            source: NumberedSource(count: rows, server: server.baseURL),
            loader: PipelineThumbnailLoader(pipeline: pipeline, options: .default),
            configuration: .init(thumbnail: CellSize(columns: 12, rows: 5), prefetch: prefetch))
        table.resize(columns: 100, rows: 30)
        var samples: [Double] = []
        var waiting: Set<Int> = []
        var settleStart = ContinuousClock.now
        var settled: CheckedContinuation<Void, Never>?
        func check() {
            for index in waiting {
                guard let slot = table.pool.slot(forItem: index) else { continue }
                switch slot.thumbnail {
                case .loaded, .failed, .lookupFailed:
                    samples.append(Double((ContinuousClock.now - settleStart) / .microseconds(1)) / 1000)
                    waiting.remove(index)
                default: break
                }
            }
            if waiting.isEmpty, let c = settled { settled = nil; c.resume() }
        }
        // As the app does: a change asks for a frame, and the table is updated before each frame.
        let frame = FrameRequest()
        table.onChange {
            check()
            frame.request {
                table.update()
                check()
            }
        }
        table.start()
        while table.items.isEmpty { try? await Task.sleep(for: .milliseconds(5)) }
        var keys = 0
        // j moves a row a key, in bursts of 60 keys; PgDn a screen a key, in bursts of 10.
        while table.viewport.selection < rows - 1 {
            for _ in 0..<(paging ? 10 : 60) where table.viewport.selection < rows - 1 {
                if paging { table.page(by: 1) } else { table.move(by: 1) }
                table.update()
                keys += 1
                try? await Task.sleep(for: .milliseconds(33))
            }
            table.update()
            settleStart = .now
            waiting = Set(table.visibleRows.compactMap(table.itemIndex(forRow:)))
            await withCheckedContinuation { c in
                settled = c
                check()
            }
        }
        table.cancelAll()
        await pipeline.cancelAll()
        let c = pipeline.counters.snapshot
        samples.sort()
        var r = Result()
        r.started = c.requestsStarted
        r.cancelled = c.requestsCancelled
        r.prefetchesStarted = c.prefetchesStarted
        r.prefetchesCancelled = c.prefetchesCancelled
        r.maxInFlight = c.maxDownloadsInFlight
        r.downloadedMB = Double(c.bytesDownloaded) / 1_048_576
        r.discardedPercent = c.bytesDownloaded == 0 ? 0 : 100 * Double(c.bytesDiscarded) / Double(c.bytesDownloaded)
        r.p50 = samples.isEmpty ? 0 : samples[samples.count / 2]
        r.p95 = samples.isEmpty ? 0 : samples[min(samples.count - 1, samples.count * 95 / 100)]
        return r
    }
}

/// Coalesces frame requests as the app's loop does: one frame for any number of changes before it runs.
@MainActor
final class FrameRequest {
    private var pending = false

    func request(_ frame: @escaping @MainActor () -> Void) {
        guard !pending else { return }
        pending = true
        Task { @MainActor in
            self.pending = false
            frame()
        }
    }
}
