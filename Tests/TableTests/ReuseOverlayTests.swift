import Cells
import Foundation
import Items
@testable import Table
import TestSupport
import Testing

/// The reuse overlay explains itself: slot states in the user's words, a bounded log of what the slots did (the
/// loads they cancelled and where those stood), the counters by group with `wrong_paints` on its own line, and each
/// row tagged with the slot drawing it.
@MainActor
@Suite struct ReuseOverlayTests {
    /// A fake loader that says where its pictures come from (as the pipeline does) and how far a download stood.
    struct ReportingLoader: ThumbnailLoading {
        let inner: FakeThumbnailLoader
        let origin: ThumbnailOrigin
        let standing: DownloadStanding?

        func thumbnail(_ url: URL, size: CellSize) -> ThumbnailLoad {
            let load = inner.thumbnail(url, size: size)
            guard load.ready == nil else { return load }
            let origin = self.origin
            return .pending {
                let cells = try await load.value()
                ThumbnailLoadReport.current?.origin = origin
                return cells
            }
        }

        func download(of url: URL) -> DownloadStanding? { standing }
    }

    func makeTable(_ loader: any ThumbnailLoading, fake: FakeThumbnailLoader, count: Int = 300,
                   layout: LayoutMode = .list) async -> (TableController, ChangeWaiter) {
        // Keys a second apart: slots are reused, not freed for rows flown past (`ScrollPaceTests`).
        let table = TableController(source: FakeItemSource(count: count, pageSize: 100), loader: loader,
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3), layout: layout,
                                                         clock: ManualClock(step: .seconds(1)).read))
        let waiter = ChangeWaiter(table)
        waiter.observe(fake)
        table.resize(columns: 80, rows: 24)
        table.start()
        await waiter.until { !table.items.isEmpty }
        return (table, waiter)
    }

    func events(_ table: TableController) -> [RowSlot.Event] {
        table.visibleRows.compactMap { table.itemIndex(forRow: $0).flatMap { table.pool.slot(forItem: $0)?.event } }
    }

    @Test func statesSayWhereAPictureCameFrom() async {
        let words = RowSlot.Event.allCases.map(\.rawValue)
        #expect(words == ["free", "loading", "cancelled", "painted", "failed", "from memory", "from disk",
                          "downloaded", "no image"])

        let fake = FakeThumbnailLoader(gated: true, caches: true)
        let (table, waiter) = await makeTable(ReportingLoader(inner: fake, origin: .disk, standing: nil), fake: fake)
        table.update()
        #expect(events(table).allSatisfy { $0 == .loading })
        #expect(await waiter.until { fake.pending.count == table.visibleRows.count })
        fake.releaseAll()
        #expect(await waiter.until { self.events(table).allSatisfy { $0 == .fromDisk } })
        let frame = table.nextFrame().lines.joined(separator: "\n")
        table.toggleReuseOverlay()
        #expect(!frame.contains("from disk"), "the states are the overlay's, not the list's")
        #expect(table.nextFrame().lines.joined(separator: "\n").contains("0 row 1 from disk"))

        // Away and back, far enough that their slots left them (the overlay's panel leaves two rows a page): the
        // rows come back from the loader's memory, at once.
        for step in Array(repeating: 1.0, count: 8) + Array(repeating: -1.0, count: 8) {
            table.page(by: step)
            table.update()
        }
        #expect(events(table).allSatisfy { $0 == .fromMemory })

        let network = FakeThumbnailLoader()
        let (downloaded, downloadedWaiter) = await makeTable(
            ReportingLoader(inner: network, origin: .network, standing: nil), fake: network)
        downloaded.update()
        #expect(await downloadedWaiter.until { self.events(downloaded).allSatisfy { $0 == .downloaded } })

        // A loader that does not say where its pictures come from: "painted"; a failure: "failed".
        let silent = FakeThumbnailLoader(failing: ["1.png"])
        let (painted, paintedWaiter) = await makeTable(silent, fake: silent)
        painted.update()
        #expect(await paintedWaiter.until { !painted.isAnimating })
        #expect(events(painted).prefix(3) == [.painted, .failed, .painted])
    }

    @Test func theLogSaysWhichSlotMovedWhereAndWhatItCancelled() async {
        let fake = FakeThumbnailLoader(gated: true)
        let loader = ReportingLoader(inner: fake, origin: .network, standing: .receiving(bytes: 40 * 1024))
        let (table, waiter) = await makeTable(loader, fake: fake)
        table.update()
        #expect(await waiter.until { fake.pending.count == table.visibleRows.count })
        let log = table.pool.log
        #expect(log.entries.first == "slot 0: free → row 1")
        let first = table.pool.slot(forItem: 0)
        for _ in 0..<3 { table.page(by: 1) }
        table.update()
        // The first row's slot now draws a row three screens down; its load was cancelled at 40 KB.
        let moved = log.entries.first { $0.hasPrefix("slot \(first?.id ?? -1): row 1 → ") }
        #expect(moved?.hasSuffix(", cancelled images/0.png, 40 KB received") == true, "\(log.entries)")
        if let first, let row = first.boundItem {
            #expect(moved?.contains("row 1 → row \(row + 1),") == true)
        }

        // The log keeps only its last entries, newest last.
        for _ in 0..<20 {
            table.page(by: 1)
            table.update()
        }
        #expect(log.entries.count == log.capacity)
        let newest = table.visibleRows.compactMap(table.itemIndex(forRow:)).last.map { "row \($0 + 1)" }
        #expect(log.entries.last?.contains(newest ?? "?") == true, "\(log.entries.suffix(3))")
    }

    @Test func aCancelledLoadSaysWhereItsDownloadStood() throws {
        let url = try #require(URL(string: "http://127.0.0.1:8080/id/150/120/90/5.jpg"))
        #expect(SlotLog.cancelled(url, standing: .receiving(bytes: 40 * 1024)) == "cancelled id/…/5.jpg, 40 KB received")
        #expect(SlotLog.cancelled(url, standing: .receiving(bytes: 0)) == "cancelled id/…/5.jpg before any byte")
        #expect(SlotLog.cancelled(url, standing: .waiting) == "cancelled id/…/5.jpg waiting for a connection")
        #expect(SlotLog.cancelled(url, standing: nil) == "cancelled id/…/5.jpg")
        let hostile = try #require(URL(string: "http://127.0.0.1/a/%1B%5D52;c;AAAA%07.png"))
        #expect(!SlotLog.cancelled(hostile, standing: nil).unicodeScalars.contains { $0.value < 0x20 })
    }

    /// A loader whose loads run on after their slot cancelled them (as a naive loader's would), so their results
    /// arrive late.
    struct UncancellableLoader: ThumbnailLoading {
        let inner: FakeThumbnailLoader

        func thumbnail(_ url: URL, size: CellSize) -> ThumbnailLoad {
            let load = inner.thumbnail(url, size: size)
            return .pending { try await Task { try await load.value() }.value }
        }
    }

    @Test func aLateResultDroppedIsLogged() async {
        let fake = FakeThumbnailLoader(gated: true)
        let (table, waiter) = await makeTable(UncancellableLoader(inner: fake), fake: fake)
        table.update()
        #expect(await waiter.until { fake.pending.count == table.visibleRows.count })
        let slot = table.pool.slot(forItem: 0)
        // The first load of row 1 is left by the retry, then let finish: its result comes for a binding gone.
        table.retrySelected()
        #expect(await waiter.until { fake.pending.count == table.visibleRows.count + 1 })
        fake.releaseAll()
        #expect(await waiter.until { table.pool.counters.staleResultsDropped == 1 })
        #expect(table.pool.log.entries.contains("slot \(slot?.id ?? -1): late picture for row 1 dropped"))
        #expect(table.pool.counters.wrongPaints == 0)
    }

    @Test func countersAreGroupedWithWrongPaintsFirst() {
        let groups = OverlayCounterGroups([
            ("slots", 10), ("slot_reuses", 4), ("loads_started", 20), ("loads_cancelled", 6),
            ("stale_results_dropped", 2), ("wrong_paints", 0), ("requests_started", 50), ("requests_cancelled", 12),
            ("requests_failed", 3), ("bytes_downloaded", 3 << 20), ("bytes_discarded", 40 * 1024),
            ("memory_hits", 7), ("disk_hits", 5), ("disk_entries_discarded", 1), ("frobs", 9),
        ])
        #expect(groups.wrongPaints == 0)
        #expect(groups.groups.map(\.name) == ["correctness", "reuse", "network", "caches", "other"])
        #expect(groups.groups[0].phrases == ["late results dropped 2"])
        #expect(groups.groups[1].phrases == ["slots 10", "reuses 4", "loads 20 (6 cancelled)"])
        #expect(groups.groups[2].phrases == ["requests 50 (12 cancelled, 3 failed)", "received 3.0 MB (40 KB wasted)"])
        #expect(groups.groups[3].phrases == ["memory hits 7", "disk hits 5 (1 bad)"])
        #expect(groups.groups[4].phrases == ["frobs 9"])
    }

    @Test func theCacheCountersMostRunsLeaveAtZeroShowOnlyOnceTheyCount() {
        let quiet = OverlayCounterGroups([("memory_hits", 7), ("revalidated", 0), ("not_modified", 0),
                                          ("failures_remembered", 0), ("memory_purges", 0)])
        #expect(quiet.groups.map(\.phrases) == [["memory hits 7"]])
        let counted = OverlayCounterGroups([("memory_hits", 7), ("revalidated", 3), ("not_modified", 2),
                                            ("failures_remembered", 4), ("memory_purges", 1)])
        #expect(counted.groups.map(\.phrases) == [["memory hits 7", "revalidated 3 (2 not modified)",
                                                    "failures remembered 4", "memory purges 1"]])
    }

    @Test func wrongPaintsHasItsOwnLineGreenAtZeroRedAbove() async {
        let (table, waiter) = await ChangeWaiter.startedTable()
        table.update()
        #expect(await waiter.until { !table.isAnimating })
        table.toggleReuseOverlay()
        let theme = table.configuration.theme
        func correctnessLine() -> (text: String, style: CellStyle?) {
            let frame = table.nextFrame()
            guard let y = (0..<frame.height).first(where: { frame.line($0).hasPrefix(" wrong_paints") }) else {
                return ("", nil)
            }
            return (frame.line(y), frame[1, y].style)
        }
        let zero = correctnessLine()
        #expect(zero.text.contains("wrong_paints 0 (must stay 0)"))
        #expect(zero.style?.foreground == theme.good.foreground)
        // The app's counters come after the slots', so a later wrong_paints stands for a count above 0.
        table.showCounters { [("wrong_paints", 3)] }
        let three = correctnessLine()
        #expect(three.text.contains("wrong_paints 3: WRONG PICTURES PAINTED"))
        #expect(three.style?.foreground == theme.error.foreground)
    }

    @Test func rowsAndGridCellsShowTheirSlotOnlyWithTheOverlay() async {
        for layout in [LayoutMode.list, .grid] {
            let (table, waiter) = await ChangeWaiter.startedTable(layout: layout)
            table.update()
            #expect(await waiter.until { !table.isAnimating })
            #expect(!table.nextFrame().lines.joined().contains("slot 0"))
            table.toggleReuseOverlay()
            let lines = table.nextFrame().lines
            let list = lines.prefix(table.listTop + table.listHeight).joined(separator: "\n")
            for index in table.visibleRows.compactMap(table.itemIndex(forRow:)).prefix(2) {
                guard let slot = table.pool.slot(forItem: index) else { continue }
                #expect(list.contains("slot \(slot.id)"), "\(layout): item \(index)")
            }
        }
    }

    @Test func theOverlayFitsAnEightyByTwentyFourScreen() async {
        let (table, waiter) = await ChangeWaiter.startedTable(columns: 80, rows: 24)
        table.update()
        #expect(await waiter.until { !table.isAnimating })
        table.showCounters { [("requests_started", 7), ("requests_cancelled", 2), ("bytes_downloaded", 9000),
                              ("memory_hits", 3), ("disk_hits", 1)] }
        table.toggleReuseOverlay()
        let lines = table.nextFrame().lines
        let panel = lines.joined(separator: "\n")
        for needed in ["Reuse overlay · s hides", "wrong_paints 0", "state: loading", "reuse ", "network ",
                       "caches ", "latest "] {
            #expect(panel.contains(needed), "\(needed)")
        }
        // Half the list area or twelve lines: rows stay in sight above the panel.
        let top = lines.firstIndex { $0.contains("Reuse overlay") } ?? 0
        #expect(top - table.listTop >= table.listHeight - 12)
        #expect(lines[table.listTop..<top].contains { $0.hasSuffix("slot 0") })
    }
}
