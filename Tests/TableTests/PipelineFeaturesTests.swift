import Cells
import Foundation
import Items
import Table
import TestSupport
import Testing

/// What the table does with a caching, prefetching loader: rows seen before are drawn in the same frame, the next
/// screen is warmed, the overlay shows slots and counters, the batch prefetch reports progress, and the detail pane
/// falls back to the small image and can delete an image from the caches.
@MainActor
@Suite struct PipelineFeaturesTests {
    func makeTable(count: Int = 300, loader: FakeThumbnailLoader, lowData: Bool = false, clock: ManualClock? = nil,
                   makeItem: @escaping @Sendable (Int) -> Item = FakeItemSource.numberedItem)
        async -> (TableController, ChangeWaiter) {
        let read = ManualClock.read(clock)
        let table = TableController(source: FakeItemSource(count: count, pageSize: 100, makeItem: makeItem),
                                    loader: loader,
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3), lowData: lowData,
                                                         clock: read))
        let waiter = ChangeWaiter(table)
        waiter.observe(loader)
        table.resize(columns: 80, rows: 24)
        table.start()
        await waiter.until { !table.items.isEmpty }
        return (table, waiter)
    }

    func spinnerShown(_ frame: CellBuffer) -> Bool {
        frame.lines.joined().contains { "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏".contains($0) }
    }

    @Test func scrollingBackToSeenRowsDrawsThemInTheSameFrame() async {
        let loader = FakeThumbnailLoader(caches: true)
        let (table, waiter) = await makeTable(loader: loader)
        table.update()
        let first = table.visibleRows
        #expect(await waiter.until { first.allSatisfy { table.pool.slot(forItem: $0)?.thumbnail.isLoading == false } })
        // Far enough that every slot is reused, then back.
        for _ in 0..<4 {
            table.page(by: 1)
            table.update()
        }
        #expect(first.allSatisfy { table.pool.slot(forItem: $0) == nil }, "every first-screen slot was reused")
        let startedBefore = loader.started.count
        table.goHome()
        let frame = table.nextFrame()
        #expect(!spinnerShown(frame), "the first screen comes back at once")
        #expect(frame.lines.joined(separator: "\n").contains("#0"))
        #expect(first.allSatisfy { table.pool.slot(forItem: $0)?.event == .fromMemory })
        #expect(loader.started.count == startedBefore, "nothing was loaded again")
    }

    @Test func theNextScreenInTheScrollDirectionIsPrefetchedFirst() async {
        let loader = FakeThumbnailLoader()
        let clock = ManualClock()
        let (table, _) = await makeTable(loader: loader, clock: clock)
        table.update()
        let visible = table.visibleRows
        let down = (loader.prefetched.last ?? []).map(\.lastPathComponent)
        #expect(down.prefix(visible.count) == ArraySlice(visible.map { "\($0).png" }), "the rows on screen stay wanted")
        #expect(down.dropFirst(visible.count).first == "\(visible.upperBound).png", "then below the screen, nearest first")
        #expect(down.count == 2 * visible.count, "one screen ahead; none above the first row")
        for _ in 0..<5 {
            clock.advance(by: .seconds(1))
            table.page(by: 1)
            table.update()
        }
        clock.advance(by: .seconds(1))
        table.page(by: -1)
        table.update()
        let now = table.visibleRows
        let up = (loader.prefetched.last ?? []).map(\.lastPathComponent)
        #expect(up.dropFirst(now.count).first == "\(now.lowerBound - 1).png", "moving up: the screen above first")
        #expect(up.count == 2 * now.count, "nothing behind while the scroll moves")
        clock.advance(by: .seconds(1))
        table.update()
        let rest = (loader.prefetched.last ?? []).map(\.lastPathComponent)
        #expect(rest.prefix(2 * now.count) == up.prefix(2 * now.count))
        #expect(rest.count == 3 * now.count, "at rest, the screen below after it")
        #expect(rest.last == "\(now.upperBound + now.count - 1).png")
    }

    @Test func theReuseOverlayShowsSlotsAndCounters() async {
        let loader = FakeThumbnailLoader()
        let (table, _) = await makeTable(loader: loader)
        table.showCounters { [("bytes_discarded", 42)] }
        table.toggleReuseOverlay()
        let text = table.nextFrame().lines.joined(separator: "\n")
        #expect(text.contains("Reuse overlay · s hides"))
        #expect(text.contains("wrong_paints 0"))
        #expect(text.contains("bytes_discarded 42 B"), "a counter of the network group without its parent")
        let lines = table.reuseOverlayLines()
        #expect(lines.contains { $0.hasPrefix("slots") && $0.contains("0 row 1 loading") })
        #expect(lines.contains { $0.hasPrefix("latest") && $0.contains("slot 0: free → row 1") })
    }

    @Test func batchPrefetchCountsProgressAndEscCancels() async {
        let loader = FakeThumbnailLoader(failing: ["3.png"])
        let (table, waiter) = await makeTable(count: 100, loader: loader)
        table.startBatchPrefetch()
        #expect(table.batchProgress?.total == 100)
        #expect(await waiter.until { table.batchProgress?.finished == true })
        #expect(table.batchProgress?.done == 99 && table.batchProgress?.failed == 1)
        #expect(table.nextFrame().lines.last?.contains("prefetched [") == true)

        let gated = FakeThumbnailLoader(gated: true)
        let (slow, slowWaiter) = await makeTable(count: 100, loader: gated)
        slow.startBatchPrefetch()
        #expect(await slowWaiter.until { gated.pending.count > 50 })
        slow.cancelBatchPrefetch()
        #expect(slow.batchProgress?.cancelled == true)
        #expect(await slowWaiter.until { gated.cancelled >= 50 }, "the batch's loads were cancelled")
    }

    @Test func theDetailPaneFallsBackToTheSmallImageAndCanDeleteFromTheCache() async {
        let loader = FakeThumbnailLoader(failing: ["big-1.png"])
        let (table, waiter) = await makeTable(loader: loader) { i in
            Item(id: "\(i)", title: "Item \(i)", imageURL: URL(string: "http://127.0.0.1/big-\(i).png"),
                 thumbnailURL: URL(string: "http://127.0.0.1/\(i).png"))
        }
        table.move(by: 1)
        table.openSelected()
        let pane = table.detail!
        #expect(await waiter.until { if case .loaded = pane.image { true } else { false } })
        #expect(pane.imageURL?.lastPathComponent == "1.png")
        #expect(pane.fullSizeFailure?.contains("big-1.png") == true)
        let text = table.nextFrame().lines.joined(separator: "\n")
        #expect(text.contains("Full-size image: failed"))
        table.removeDetailImageFromCache()
        #expect(Set(loader.removed.map(\.lastPathComponent)) == ["big-1.png", "1.png"])
        #expect(table.nextFrame().lines.joined(separator: "\n").contains("removed from the cache"))
    }

    @Test func lowDataModeUsesTheSmallImageInTheDetailPane() async {
        let loader = FakeThumbnailLoader()
        let (table, waiter) = await makeTable(loader: loader, lowData: true) { i in
            Item(id: "\(i)", title: "Item \(i)", imageURL: URL(string: "http://127.0.0.1/big-\(i).png"),
                 thumbnailURL: URL(string: "http://127.0.0.1/\(i).png"))
        }
        table.openSelected()
        #expect(await waiter.until { if case .loaded = table.detail!.image { true } else { false } })
        #expect(!loader.started.contains { $0.lastPathComponent.hasPrefix("big-") })
    }
}

/// A source whose items have no image until `refreshImage` finds one: a row whose lookup failed, then succeeds.
final class LateImageSource: ItemSource, @unchecked Sendable {
    // @unchecked: `refreshes` is only touched under `lock`.
    private let lock = NSLock()
    private var refreshes = 0
    let name = "Late images"
    let attribution = "All images from the test"
    var firstPage: PageCursor { .number(1) }
    var refreshCount: Int { lock.withLock { refreshes } }

    func page(at cursor: PageCursor) async throws -> ItemPage {
        ItemPage(items: (0..<5).map { Item(id: "\($0)", title: "Item \($0)") }, next: nil)
    }

    func refreshImage(of item: Item) async -> Item? {
        lock.withLock { refreshes += 1 }
        var found = item
        found.imageURL = URL(string: "http://127.0.0.1/images/\(item.id).png")
        return found
    }
}

@MainActor
@Suite struct RefreshImageTests {
    @Test func retryOnARowWithoutAPictureAsksTheSourceAgainAndDrawsWhatItFinds() async {
        let loader = FakeThumbnailLoader()
        let source = LateImageSource()
        let table = TableController(source: source, loader: loader,
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3)))
        let waiter = ChangeWaiter(table)
        table.resize(columns: 80, rows: 24)
        table.start()
        #expect(await waiter.until { !table.items.isEmpty })
        table.update()
        #expect(table.pool.slot(forItem: 0)?.thumbnail == ThumbnailState.none)
        table.retrySelected()
        #expect(table.nextFrame().lines.last?.contains("looking the picture up again") == true)
        #expect(await waiter.until { table.items[0].imageURL != nil })
        table.update()
        #expect(await waiter.until {
            if case .loaded = table.pool.slot(forItem: 0)?.thumbnail { return true }
            return false
        })
        #expect(table.nextFrame().lines.joined().contains("#0"))
        #expect(source.refreshCount == 1)
    }
}
