import Cells
import Foundation
import Items

/// Keeps the thumbnails in line with the screen: binds row slots to the rows on screen, starting and cancelling
/// their loads, and warms the rows around them. It owns the slot pool, the loader, the counters and the change
/// callback, so nothing below it is handed them on each call.
@MainActor
final class ThumbnailBinder {
    let pool: SlotPool
    let loader: any ThumbnailLoading
    /// Whether to warm the next screen in the scroll direction and the previous one.
    private let prefetches: Bool
    /// The rows (and loaded count) the last prefetch was computed for.
    private var prefetchedAround: (rows: Range<Int>, loaded: Int)?

    init(loader: any ThumbnailLoading, margin: Int, prefetches: Bool, counters: SlotCounters,
         changed: ChangeSignal) {
        self.loader = loader
        self.prefetches = prefetches
        self.pool = SlotPool(margin: margin, counters: counters, changed: changed)
    }

    /// Binds slots to the rows on screen (starting the loads of rows bound anew, cancelling those of the slots they
    /// took) and warms the rows around them.
    func update(visible: Range<Int>, list: ListState, size: CellSize) {
        let rows = visible.compactMap { row in list.itemIndex(forRow: row).map { ($0, list.items[$0].rowImageURL) } }
        for slot in pool.bind(visible: rows) {
            guard let url = slot.imageURL else { continue }
            switch loader.thumbnail(url, size: size) {
            case .ready(let picture): slot.show(picture)
            case let load: slot.start(load)
            }
        }
        if prefetches { prefetch(around: visible, list: list, size: size) }
    }

    /// Loads an item's thumbnail again, if a slot shows it. Returns whether one does.
    func reload(item index: Int, size: CellSize) -> Bool {
        guard let slot = pool.slot(forItem: index) else { return false }
        if let url = slot.imageURL { slot.reload(loader.thumbnail(url, size: size)) }
        return true
    }

    /// Frees an item's slot (the item changed); the next update binds it anew.
    func forget(item index: Int) {
        pool.unbind(item: index)
    }

    /// The rows changed under the same screen (a filter): the next update prefetches anew.
    func rowsChanged() {
        prefetchedAround = nil
    }

    /// Stops every thumbnail load: the prefetch and the slots'.
    func cancelAll(size: CellSize?) {
        if let size { loader.prefetch([], size: size) }
        pool.unbindAll()
    }

    /// The display rows to warm: the visible ones (so a prefetch already fetching a row that scrolls into view is
    /// joined, not cancelled), then the next screen in the scroll direction, then the previous one, nearest first.
    static func prefetchRows(around visible: Range<Int>, itemCount: Int, movingUp: Bool) -> [Int] {
        let n = max(1, visible.count)
        let end = min(visible.upperBound, itemCount), start = min(visible.lowerBound, itemCount)
        let below = Array(end..<min(itemCount, end + n))
        let above = Array((max(0, start - n)..<start).reversed())
        let shown = Array(start..<end)
        return shown + (movingUp ? above + below : below + above)
    }

    private func prefetch(around visible: Range<Int>, list: ListState, size: CellSize) {
        if let last = prefetchedAround, last.rows == visible, last.loaded == list.items.count { return }
        let movingUp = prefetchedAround.map { visible.lowerBound < $0.rows.lowerBound } ?? false
        prefetchedAround = (visible, list.items.count)
        let rows = Self.prefetchRows(around: visible, itemCount: list.itemCount, movingUp: movingUp)
        let urls = rows.compactMap { row in list.itemIndex(forRow: row).flatMap { list.items[$0].rowImageURL } }
        loader.prefetch(urls, size: size)
    }
}
