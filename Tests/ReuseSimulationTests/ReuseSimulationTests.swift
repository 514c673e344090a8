import App
import Cells
import DemoServer
import Foundation
import Items
@testable import Pipeline
import Table
import TestSupport
import Testing
import TextArt

/// Thousands of random scroll sequences against the real table, slots and pipeline, with a loader whose downloads
/// finish in an order the random generator picks (the "latency"). After each sequence settles, every visible row
/// shows its own image, no late result painted a reused slot, and the pool never grew past the screen.
@MainActor
@Suite struct ReuseSimulationTests {
    @Test(arguments: 0..<4)
    func everyVisibleRowEndsWithItsOwnImage(batch: Int) async throws {
        // 4 batches of 300 sequences: 1,200 random sequences in all, each with its own seed.
        for seed in (batch * 300)..<((batch + 1) * 300) {
            try await runSequence(seed: UInt64(seed))
        }
    }

    @Test(arguments: 0..<2)
    func inTheGridEveryVisibleCellEndsWithItsOwnImage(batch: Int) async throws {
        // 2 batches of 150 sequences in the grid view, moving across as well as up and down.
        for seed in (10_000 + batch * 150)..<(10_000 + (batch + 1) * 150) {
            try await runSequence(seed: UInt64(seed), layout: .grid)
        }
    }

    func runSequence(seed: UInt64, layout: LayoutMode = .list) async throws {
        var random = SplitMix64(seed: seed)  // a failing sequence replays from its seed
        let loader = FakeDataLoader()
        let pipeline = ImagePipeline(
            configuration: .init(maxDownloads: Int.random(in: 1...6, using: &random),
                                 maxDownloadsPerHost: Int.random(in: 1...6, using: &random),
                                 memoryCacheBytes: [0, 4096, 1 << 20].randomElement(using: &random)!),
            loader: loader, processing: .fake)
        let options = TextArtOptions(mode: .ascii, color: .none)
        let source = FakeItemSource(count: 200, pageSize: 50)
        let table = TableController(source: source, loader: PipelineThumbnailLoader(pipeline: pipeline, options: options),
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3), slotMargin: 2,
                                                         layout: layout))
        let waiter = ChangeWaiter(table)
        table.resize(columns: 60, rows: 24)
        table.start()
        #expect(await waiter.until { table.items.count >= 50 }, "seed \(seed): the first page arrives")
        let screenRows = table.visibleRows.count

        for _ in 0..<40 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0...3: table.move(by: Int.random(in: -6...6, using: &random))
            case 4: table.page(by: Bool.random(using: &random) ? 1 : -1)
            case 5: Bool.random(using: &random) ? table.goEnd() : table.goHome()
            case 6: Bool.random(using: &random) ? table.retrySelected()
                : table.moveAcross(by: Int.random(in: -3...3, using: &random))
            default:
                // Some downloads finish, in random order: this is the latency.
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let pending = loader.pendingURLs
                    guard let url = pending.randomElement(using: &random) else { break }
                    loader.answer(url)
                }
            }
            table.update()
            for _ in 0..<Int.random(in: 0...3, using: &random) { await Task.yield() }
        }

        loader.answerEverything()
        let settled = await waiter.until {
            table.update()
            return table.visibleRows.allSatisfy { row in
                guard let index = table.itemIndex(forRow: row) else { return true }
                if case .loaded = table.pool.slot(forItem: index)?.thumbnail { return true }
                return false
            }
        }
        #expect(settled, "seed \(seed): every visible row finished loading")
        for row in table.visibleRows {
            guard let index = table.itemIndex(forRow: row), let slot = table.pool.slot(forItem: index) else { continue }
            guard case .loaded(let picture) = slot.thumbnail else { continue }
            let shown = String(picture.plainText.prefix { $0 != "\n" }.reversed().drop { $0 == "." }.reversed())
            #expect(shown == "\(index).png", "seed \(seed): row \(index) shows \(shown)")
        }
        #expect(table.pool.counters.wrongPaints == 0, "seed \(seed)")
        #expect(table.pool.slots.count <= screenRows + 2 + 1, "seed \(seed): the pool stays the size of the screen")
        table.cancelAll()
        await pipeline.cancelAll()
    }

    /// A 60x24 table over 200 items (all in one page, loaded), its pipeline and its gated loader.
    func loadedTable(maxDownloads: Int, prefetch: Bool) async
        -> (FakeDataLoader, ImagePipeline, TableController, ChangeWaiter) {
        let loader = FakeDataLoader()
        // Gated downloads receive nothing until released: without a long stall limit, a slow run (a loaded machine)
        // would see them preempted for the rows on screen, and count those as cancellations too.
        let pipeline = ImagePipeline(configuration: .init(maxDownloads: maxDownloads, maxDownloadsPerHost: maxDownloads,
                                                          preemptsStalledAfter: .seconds(3600)),
                                     loader: loader, processing: .fake)
        let table = TableController(
            source: FakeItemSource(count: 200, pageSize: 200),
            loader: PipelineThumbnailLoader(pipeline: pipeline, options: TextArtOptions(mode: .ascii, color: .none)),
            configuration: .init(thumbnail: CellSize(columns: 8, rows: 3), slotMargin: 2, prefetch: prefetch))
        let waiter = ChangeWaiter(table)
        table.resize(columns: 60, rows: 24)
        table.start()
        #expect(await waiter.until { table.items.count == 200 })
        return (loader, pipeline, table, waiter)
    }

    @Test func scrollingAwayCancelsDownloadsAndLateResultsAreDropped() async throws {
        let (loader, pipeline, table, _) = await loadedTable(maxDownloads: 6, prefetch: false)
        table.update()
        let firstScreen = table.visibleRows.count
        #expect(firstScreen <= 6, "every row on screen downloads at once")
        #expect(await loader.waitForStarts(firstScreen))
        // Jump far away: the slots taken for the new rows had loads under way, which are cancelled at the loader.
        table.goEnd()
        table.update()
        let reused = (0..<firstScreen).filter { table.pool.slot(forItem: $0) == nil }
        #expect(!reused.isEmpty)
        #expect(await loader.waitUntil { $0.cancelled.count >= reused.count })
        #expect(Set(loader.cancelled.map(\.lastPathComponent)) == Set(reused.map { "\($0).png" }))
        // A request counts itself cancelled when its awaiting task resumes, which may come after the loader saw the
        // cancel: the counter has no event to await, so look until it is there (or the generous deadline).
        let deadline = ContinuousClock.now + Deadline.generous
        while pipeline.counters.snapshot.requestsCancelled < reused.count, ContinuousClock.now < deadline {
            await Task.yield()
        }
        #expect(pipeline.counters.snapshot.requestsCancelled == reused.count)
        #expect(table.pool.counters.loadsCancelled == reused.count)
        #expect(table.pool.counters.wrongPaints == 0)
        table.cancelAll()
    }

    @Test func aRowScrollingIntoViewJoinsItsPrefetchInsteadOfDownloadingAgain() async throws {
        // Room for the screen's downloads and the prefetches at once.
        let (loader, _, table, waiter) = await loadedTable(maxDownloads: 40, prefetch: true)
        table.update()
        let below = table.visibleRows.upperBound
        let name = "\(below).png"
        #expect(await loader.waitUntil { $0.started.contains { $0.lastPathComponent == name } }, "the next row is prefetched")
        // Scroll until that row is on screen, while its prefetch is still downloading.
        while !table.visibleRows.contains(below) {
            table.move(by: 1)
            table.update()
        }
        // Let the new prefetch set reach the pipeline (it prefetches the new next screen) before any answer.
        let ahead = "\(table.visibleRows.upperBound).png"
        #expect(await loader.waitUntil { $0.started.contains { $0.lastPathComponent == ahead } })
        for _ in 0..<20 { await Task.yield() }
        loader.answerEverything()
        #expect(await waiter.until {
            if case .loaded = table.pool.slot(forItem: below)?.thumbnail { return true }
            return false
        })
        #expect(loader.started.filter { $0.lastPathComponent == name }.count == 1, "one download for the row")
        #expect(!loader.cancelled.contains { $0.lastPathComponent == name })
        table.cancelAll()
    }
}
