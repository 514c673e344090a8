import Cells
import Foundation
import Table
import TestSupport
import Testing

/// `+` and `-` in the list, and thumbnails sized to the screen: the pool follows the rows on screen, the selection
/// stays, old-size loads are cancelled and their late results never paint.
@MainActor
@Suite struct ZoomTests {
    func makeTable(loader: any ThumbnailLoading, columns: Int = 120, rows: Int = 40,
                   thumbnail: CellSize? = nil) async -> (TableController, ChangeWaiter) {
        let table = TableController(source: FakeItemSource(count: 200, pageSize: 100), loader: loader,
                                    configuration: .init(thumbnail: thumbnail))
        let waiter = ChangeWaiter(table)
        if let fake = loader as? FakeThumbnailLoader { waiter.observe(fake) }
        table.resize(columns: columns, rows: rows)
        table.start()
        await waiter.until { !table.items.isEmpty }
        return (table, waiter)
    }

    /// Lets the main actor run what is queued until `condition` holds, for at most 10,000 turns: for results the
    /// table drops without a change to announce.
    func drain(until condition: () -> Bool) async -> Bool {
        for _ in 0..<10_000 {
            if condition() { return true }
            await Task.yield()
        }
        return condition()
    }

    /// The item rows on screen.
    func itemsOnScreen(_ table: TableController) -> [Int] {
        table.visibleRows.compactMap(table.itemIndex(forRow:))
    }

    /// Whether every row on screen shows its picture at the table's thumbnail size.
    func everyRowPainted(_ table: TableController) -> Bool {
        itemsOnScreen(table).allSatisfy { index in
            guard case .loaded(let picture) = table.pool.slot(forItem: index)?.thumbnail else { return false }
            return picture.width == table.thumbnailSize.columns && picture.height == table.thumbnailSize.rows
        }
    }

    @Test func theThumbnailsFollowTheScreenAndTheSelectedRowStaysOnIt() async {
        let (table, waiter) = await makeTable(loader: FakeThumbnailLoader(), columns: 80, rows: 24)
        #expect(table.thumbnailSize == CellSize(columns: 12, rows: 5))
        table.move(by: 6)
        table.update()
        table.resize(columns: 200, rows: 60)
        #expect(table.thumbnailSize.rows > 5 && table.thumbnailSize.columns > 12)
        table.update()
        #expect(await waiter.until { everyRowPainted(table) })
        #expect(table.viewport.selection == 6)
        #expect(table.visibleRows.contains(6))
        table.resize(columns: 80, rows: 24)
        #expect(table.thumbnailSize == CellSize(columns: 12, rows: 5))
        #expect(table.visibleRows.contains(6))
    }

    @Test func zoomingChangesTheSizeKeepsTheSelectionAndThePoolFollowsTheRowsOnScreen() async {
        let (table, waiter) = await makeTable(loader: FakeThumbnailLoader(), columns: 200, rows: 60)
        table.move(by: 20)
        table.update()
        #expect(await waiter.until { everyRowPainted(table) })
        let before = (size: table.thumbnailSize, onScreen: table.visibleRows.count, slots: table.pool.slots.count)
        #expect(before.slots == before.onScreen + table.pool.margin)

        table.zoom(by: 1)
        table.update()
        #expect(table.thumbnailSize.rows > before.size.rows && table.thumbnailSize.columns > before.size.columns)
        #expect(table.viewport.selection == 20)
        #expect(table.visibleRows.contains(20))
        #expect(table.visibleRows.count < before.onScreen)
        #expect(table.pool.slots.count == table.visibleRows.count + table.pool.margin, "the pool shrank")
        #expect(await waiter.until { everyRowPainted(table) })

        table.zoom(by: -3)
        table.update()
        #expect(table.thumbnailSize.rows < before.size.rows)
        #expect(table.visibleRows.count > before.onScreen)
        #expect(table.pool.slots.count == table.visibleRows.count + table.pool.margin, "the pool grew")
        #expect(table.viewport.selection == 20 && table.visibleRows.contains(20))
        #expect(await waiter.until { everyRowPainted(table) })
        // Every slot is bound to a row on screen or free: none still holds a row of the old size.
        let onScreen = Set(itemsOnScreen(table))
        #expect(table.pool.slots.allSatisfy { $0.boundItem.map(onScreen.contains) ?? true })
        #expect(table.pool.counters.wrongPaints == 0)
    }

    @Test func zoomingCancelsTheOldSizeLoads() async {
        let loader = FakeThumbnailLoader(gated: true)
        let (table, waiter) = await makeTable(loader: loader)
        table.update()
        let firstScreen = itemsOnScreen(table).count
        #expect(await waiter.until { loader.pending.count == firstScreen })
        table.zoom(by: 1)
        table.update()
        #expect(loader.cancelled >= firstScreen)
        #expect(table.pool.counters.loadsCancelled >= firstScreen)
        #expect(await waiter.until { loader.pending.count == itemsOnScreen(table).count })
        loader.releaseAll()
        #expect(await waiter.until { everyRowPainted(table) })
    }

    @Test func theOldSizePrefetchStopsAndTheNewOneWaitsForTheScreen() async {
        let loader = FakeThumbnailLoader(gated: true)
        let (table, waiter) = await makeTable(loader: loader)
        table.update()
        #expect(loader.prefetched.last?.isEmpty == false)
        #expect(await waiter.until { loader.pending.count == itemsOnScreen(table).count })
        loader.releaseAll()
        #expect(await waiter.until { everyRowPainted(table) })
        table.zoom(by: 1)
        table.update()
        #expect(loader.prefetched.last == [], "the old size's prefetch is stopped")
        #expect(await waiter.until { loader.pending.count == itemsOnScreen(table).count })
        table.update()
        #expect(loader.prefetched.last == [], "no prefetch while the rows on screen load")
        loader.releaseAll()
        #expect(await waiter.until { everyRowPainted(table) })
        table.update()
        #expect(loader.prefetched.last?.isEmpty == false, "the new size's prefetch once the screen is drawn")
    }

    @Test func aLateOldSizeResultNeverPaints() async {
        let loader = StubbornLoader()
        let (table, waiter) = await makeTable(loader: loader)
        loader.onWait = { Task { @MainActor in waiter.poke() } }
        table.update()
        let oldSize = table.thumbnailSize
        #expect(await waiter.until { loader.waiting(at: oldSize) == itemsOnScreen(table).count })
        table.zoom(by: 1)
        table.update()
        let newSize = table.thumbnailSize
        #expect(await waiter.until { loader.waiting(at: newSize) == itemsOnScreen(table).count })
        // The old-size loads ignored their cancellation and answer now, after the zoom: each must be dropped.
        let late = loader.release(at: oldSize)
        #expect(late == itemsOnScreen(table).count)
        // A dropped result changes nothing on screen, so nothing announces it: let the queued results arrive.
        #expect(await drain { table.pool.counters.staleResultsDropped >= late })
        #expect(itemsOnScreen(table).allSatisfy { table.pool.slot(forItem: $0)?.thumbnail == .loading })
        _ = loader.release(at: newSize)
        #expect(await waiter.until { everyRowPainted(table) })
        #expect(table.pool.counters.wrongPaints == 0)
    }

    @Test func zoomStopsWithANoteAndAlwaysLeavesThreeRows() async {
        let (table, _) = await makeTable(loader: FakeThumbnailLoader(), columns: 200, rows: 60)
        for _ in 0..<20 { table.zoom(by: 1) }
        #expect(table.status?.contains("largest") == true)
        table.update()
        #expect(table.visibleRows.count >= 3)
        for _ in 0..<40 { table.zoom(by: -1) }
        #expect(table.status?.contains("smallest") == true)
        #expect(table.thumbnailSize.rows == ThumbnailSizing.smallestRows)
    }

    @Test func aGivenSizeTooBigForTheScreenIsShrunkWithANote() async {
        let (table, _) = await makeTable(loader: FakeThumbnailLoader(), columns: 80, rows: 24,
                                         thumbnail: CellSize(columns: 200, rows: 100))
        #expect(table.status?.contains("do not fit") == true)
        #expect(table.thumbnailSize.rows <= 6 && table.layout.thumbnail == table.thumbnailSize)
        _ = table.nextFrame()
        // A screen where it fits clears the note.
        table.resize(columns: 300, rows: 400)
        #expect(table.thumbnailSize == CellSize(columns: 200, rows: 100))
        #expect(table.status == nil)
    }
}

/// A loader whose loads ignore cancellation and answer only when the test releases them, at the size they were
/// asked for: a late result of an old size, as a slow decoder that never checks for cancellation would give.
final class StubbornLoader: ThumbnailLoading, @unchecked Sendable {
    // @unchecked: the waiting loads are only touched under `lock`.
    private let lock = NSLock()
    private var waitingLoads: [(size: CellSize, url: URL, continuation: CheckedContinuation<Void, Never>)] = []
    private var _onWait: (@Sendable () -> Void)?
    /// Called when a load starts waiting: a test's waiter checks its condition then.
    var onWait: (@Sendable () -> Void)? {
        get { lock.withLock { _onWait } }
        set { lock.withLock { _onWait = newValue } }
    }

    func thumbnail(_ url: URL, size: CellSize) -> ThumbnailLoad {
        .pending {
            await withCheckedContinuation { continuation in
                self.lock.withLock { self.waitingLoads.append((size, url, continuation)) }
                self.onWait?()
            }
            return FakeThumbnailLoader.picture(for: url, size: size)
        }
    }

    /// The loads waiting at `size`.
    func waiting(at size: CellSize) -> Int {
        lock.withLock { waitingLoads.filter { $0.size == size }.count }
    }

    /// Lets every load of `size` answer; returns how many.
    func release(at size: CellSize) -> Int {
        let released = lock.withLock {
            let matching = waitingLoads.filter { $0.size == size }
            waitingLoads.removeAll { $0.size == size }
            return matching
        }
        for load in released { load.continuation.resume() }
        return released.count
    }
}
