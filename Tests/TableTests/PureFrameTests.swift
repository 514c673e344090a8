import App
import Cells
import Foundation
import Items
import Synchronization
import Table
import TestSupport
import Testing

/// Composing a frame reads state and writes cells: it starts no load, no prefetch and no page, and changes no state
/// (row heights, scroll extents). `update()` does that, run by the app before it composes.
@MainActor
@Suite struct PureFrameTests {
    /// A loader that records every call made while a frame is being composed, and otherwise passes calls on.
    final class WatchedLoader: ThumbnailLoading, Sendable {
        let base = FakeThumbnailLoader()
        let composing = Mutex(false)
        let callsWhileComposing = Mutex<[String]>([])

        private func note(_ call: String) {
            if composing.withLock({ $0 }) { callsWhileComposing.withLock { $0.append(call) } }
        }

        func thumbnail(_ url: URL, size: CellSize) -> ThumbnailLoad {
            note("thumbnail \(url.lastPathComponent)")
            let load = base.thumbnail(url, size: size)
            return .pending {
                self.note("load \(url.lastPathComponent)")
                return try await load.value()
            }
        }
        func prefetch(_ urls: [URL], size: CellSize) {
            note("prefetch \(urls.count)")
            base.prefetch(urls, size: size)
        }
        func removeFromCache(_ url: URL) {
            note("removeFromCache")
            base.removeFromCache(url)
        }
        func warm(_ url: URL, size: CellSize) async throws {
            note("warm")
            try await base.warm(url, size: size)
        }
    }

    @Test func composingAFrameCallsNoLoaderAndAsksForNoPage() async {
        let source = FakeItemSource(count: 200, pageSize: 20)
        let loader = WatchedLoader()
        let table = TableController(source: source, loader: loader,
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3),
                                                         helpLines: KeyTable.helpLines()))
        let waiter = ChangeWaiter(table)
        table.resize(columns: 80, rows: 24)
        table.start()
        await waiter.until { table.items.count == 20 }
        table.update()
        // Every load update() started has run (the fake finishes at once), so none is left to start late.
        #expect(await waiter.until { !loader.base.started.isEmpty && !table.isAnimating })
        let startedBefore = loader.base.started.count
        // Scroll to the end of what is loaded and compose frames without updating: nothing may start.
        loader.composing.withLock { $0 = true }
        for _ in 0..<5 {
            table.move(by: 7)
            _ = table.frame()
        }
        loader.composing.withLock { $0 = false }
        #expect(loader.callsWhileComposing.withLock { $0 } == [])
        #expect(loader.base.started.count == startedBefore)
        #expect(source.requests == [1], "no page was asked for while composing")
        // The app's next turn updates: the rows now on screen load, and the next page is asked for.
        table.update()
        #expect(await waiter.until { loader.base.started.count > startedBefore && source.requests == [1, 2] })
    }
}

/// Everything of a table that composing a frame could write, read through what the table shows of itself: the
/// layout (with its cache of row heights), the viewport, the scrolled texts' `TextScroll`s (with the extents the
/// keys scroll within), the detail pane's image, every slot, the counters, the reuse overlay's log, the notes and the
/// list's status.
@MainActor
struct ObservedTable: Equatable {
    var layout: ListLayout
    var viewport: ListViewport
    var helpScroll: TextScroll
    var detailScroll: TextScroll?
    var detailImage: ThumbnailState?
    var detailImageURL: URL?
    var failureScroll: TextScroll?
    var slots: [String]
    var counters: SlotCounters.Snapshot
    var log: [String]
    var status: String?
    var listStatus: TableController.ListStatus
    var items: Int
    var tick: Int

    init(_ table: TableController) {
        layout = table.listLayout
        viewport = table.viewport
        helpScroll = table.helpScroll
        detailScroll = table.detail?.textScroll
        detailImage = table.detail?.image
        detailImageURL = table.detail?.imageURL
        failureScroll = table.pageFailure?.textScroll
        slots = table.pool.slots.map { slot in
            "\(slot.id) \(slot.boundItem ?? -1) \(slot.bindingGeneration) \(slot.event) \(slot.cancellations) "
                + "\(slot.imageURL?.lastPathComponent ?? "-") \(slot.thumbnail.isLoading)"
        }
        counters = table.slotCounters
        log = table.pool.log.entries
        status = table.status
        listStatus = table.listStatus
        items = table.items.count
        tick = table.tick
    }
}

/// Composing writes nothing but cells in every view (the list, the grid, the help, the detail pane, the failed page's pane),
/// whether `update()` ran before it or not, and a frame composed without `update()` is the frame `update()` leads to.
extension PureFrameTests {
    static let sizes = [(80, 24), (60, 15), (34, 9), (120, 40), (20, 5), (100, 12)]

    /// A table whose first page loaded (5 rows, with images) and whose next page failed with a long reason.
    func tableWithAFailedPage(loader: FakeThumbnailLoader = FakeThumbnailLoader()) async -> TableController {
        let source = FailedPageTests.BrokenSource(message: FailedPageTests.longReason)
        let table = TableController(source: source, loader: loader,
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3),
                                                         helpLines: KeyTable.helpLines()))
        let waiter = ChangeWaiter(table)
        table.resize(columns: 80, rows: 24)
        table.start()
        await waiter.until { table.items.count == 5 }
        table.update()
        #expect(await waiter.until { if case .failed = table.listStatus { true } else { false } })
        return table
    }

    /// Composes two frames at each size, with and without `update()` before them, and expects the table's state not
    /// to change while they are composed, and the two frames to be the same.
    func expectFramesWriteNothing(_ table: TableController, _ view: String) {
        for (columns, rows) in Self.sizes {
            for updated in [false, true] {
                table.resize(columns: columns, rows: rows)
                if updated { table.update() }
                let before = ObservedTable(table)
                let first = table.frame()
                #expect(ObservedTable(table) == before, "\(view) at \(columns)x\(rows), updated: \(updated)")
                #expect(table.frame() == first, "\(view) at \(columns)x\(rows): the same state, the same frame")
                #expect(ObservedTable(table) == before)
            }
        }
    }

    @Test func composingWritesNoStateInAnyViewAtAnySize() async {
        let table = await tableWithAFailedPage()
        #expect(table.pageFailure == nil && table.items.count == 5)
        expectFramesWriteNothing(table, "the list")
        table.toggleLayout()
        expectFramesWriteNothing(table, "the grid")
        table.toggleReuseOverlay()
        expectFramesWriteNothing(table, "the reuse overlay over the grid")
        table.toggleReuseOverlay()
        table.toggleLayout()
        table.toggleHelp()
        expectFramesWriteNothing(table, "the help")
        table.scrollHelp(by: 5)
        expectFramesWriteNothing(table, "the help, scrolled")
        table.toggleHelp()
        table.goHome()
        table.openSelected()
        #expect(table.detail != nil)
        table.detail?.scroll(by: 3)
        expectFramesWriteNothing(table, "the detail pane")
        table.toggleHelp()
        expectFramesWriteNothing(table, "the help over the detail pane")
        table.toggleHelp()
        table.closeDetail()
        table.goEnd()
        table.openSelected()
        #expect(table.pageFailure != nil)
        table.pageFailure?.scroll(by: 4)
        expectFramesWriteNothing(table, "the failed page's pane")
        table.toggleReuseOverlay()
        expectFramesWriteNothing(table, "the reuse overlay over the failed page's pane")
    }

    @Test func aFrameComposedWithoutUpdateIsTheFrameUpdateLeadsTo() async {
        // The failed page's pane and the help over it, both scrolled to their ends at a small size: at every size
        // after that, the frame composed before `update()` fitted their scrolls shows what it shows after.
        let table = await tableWithAFailedPage()
        table.goEnd()
        table.openSelected()
        table.toggleHelp()
        table.resize(columns: 40, rows: 12)
        table.update()
        table.scrollHelp(by: 1000)
        table.pageFailure?.scroll(by: 1000)
        let scrolled = table.nextFrame().lines.joined(separator: "\n")
        #expect(scrolled.contains("lines"), "the help is cut and scrolled:\n\(scrolled)")
        #expect(table.helpScroll.top > 0 && table.pageFailure?.textScroll.top ?? 0 > 0)
        for (columns, rows) in Self.sizes + [(40, 12)] {
            table.resize(columns: columns, rows: rows)
            let composed = table.frame()
            table.update()
            let afterUpdate = table.frame()
            #expect(composed == afterUpdate, """
                at \(columns)x\(rows), without update:
                \(composed.lines.joined(separator: "\n"))
                after update:
                \(afterUpdate.lines.joined(separator: "\n"))
                """)
        }
    }

    @Test func theDetailPanesImageLoadIsCountedWithTheSlotsLoads() async {
        let table = await tableWithAFailedPage(loader: FakeThumbnailLoader(gated: true))
        let before = table.slotCounters
        table.openSelected()
        #expect(table.detail?.image == .loading)
        #expect(table.slotCounters.loadsStarted == before.loadsStarted + 1, "the pane's load is counted")
        table.reloadDetailImage()
        #expect(table.slotCounters.loadsCancelled == before.loadsCancelled + 1, "r cancels the load under way")
        #expect(table.slotCounters.loadsStarted == before.loadsStarted + 2, "and starts another")
        table.closeDetail()
        #expect(table.slotCounters.loadsCancelled == before.loadsCancelled + 2, "closing the pane cancels its load")
        #expect(table.slotCounters.slotReuses == before.slotReuses)
    }

    @Test func aResizeLoadsTheDetailImageInTheNextUpdateNotInTheFrame() async {
        let loader = FakeThumbnailLoader()
        let table = await tableWithAFailedPage(loader: loader)
        let waiter = ChangeWaiter(table)
        waiter.observe(loader)
        table.openSelected()
        #expect(await waiter.until { if case .loaded = table.detail?.image { true } else { false } })
        let started = loader.started.count
        table.resize(columns: 120, rows: 40)
        _ = table.frame()
        #expect(loader.started.count == started, "composing does not load the image")
        table.update()
        #expect(table.detail?.image == .loading)
        #expect(await waiter.until { loader.started.count == started + 1 }, "update loads it at the new size")
        #expect(await waiter.until { if case .loaded = table.detail?.image { true } else { false } })
    }
}
