import FoundationEssentials

/// A pool of reusable row slots, sized to the screen, serving any number of rows.
///
/// `bind` gives a row the slot already bound to it if there is one, otherwise the least recently used slot that is
/// not on screen, made ready with `prepareForReuse` and bound anew. The pool grows only when the screen shows more
/// rows than it has slots, never with the number of rows scrolled through; it shrinks when the thumbnails change
/// size (`releaseAll(keeping:)`), since every slot is bound anew then anyway.
@MainActor
public final class SlotPool {
    public private(set) var slots: [RowSlot] = []
    public let counters: SlotCounters
    /// The latest events of the slots, for the reuse overlay.
    public let log: SlotLog
    /// Slots kept beyond the rows on screen, so a row just scrolled off keeps its picture for a moment.
    public let margin: Int
    private let changed: ChangeSignal
    private var slotForItem: [Int: RowSlot] = [:]
    private var lastUse: [Int: UInt64] = [:]
    private var clock: UInt64 = 0
    /// How the slots guard against late results: `.safe` but on the naive side of `demo --compare`.
    let policy: SlotBindingPolicy

    init(margin: Int, counters: SlotCounters, log: SlotLog = SlotLog(), changed: ChangeSignal,
         policy: SlotBindingPolicy = .safe) {
        self.margin = margin
        self.counters = counters
        self.log = log
        self.changed = changed
        self.policy = policy
    }

    /// The slot bound to an item, if any.
    public func slot(forItem index: Int) -> RowSlot? {
        slotForItem[index]
    }

    /// Binds slots to the rows on screen, in order: rows that already have a slot keep it (and its picture);
    /// the others take free or off-screen slots, whose old loads are cancelled.
    /// - Parameter standing: where the download of a URL stands, asked of the loader when a slot cancels its load,
    ///   so the log can say how far it had got.
    /// - Returns: the slots bound anew, in the order of the rows, for the binder to show or load their pictures.
    func bind(visible: [(index: Int, imageURL: URL?)],
              standing: (URL) -> DownloadStanding? = { _ in nil }) -> [RowSlot] {
        clock += 1
        let wanted = Set(visible.map(\.index))
        // The pool holds the rows on screen plus a margin; a resize does not shrink it, so slots are not churned.
        while slots.count < visible.count + margin {
            slots.append(RowSlot(id: slots.count, counters: counters, log: log, changed: changed, policy: policy))
        }
        var bound: [RowSlot] = []
        for (index, url) in visible {
            if let slot = slotForItem[index] {
                lastUse[slot.id] = clock
                continue
            }
            let slot = leastRecentlyUsed(excluding: wanted)
            let old = slot.boundItem
            if let old {
                slotForItem[old] = nil
                counters.slotReuses += 1
            }
            // Asked before the cancel, while the download still counts its bytes.
            let cancelling = slot.isLoading ? slot.imageURL.map { ($0, standing($0)) } : nil
            slot.prepareForReuse()
            slot.bind(to: index, imageURL: url)
            log.add(slot: slot.id, SlotLog.move(from: old, to: index)
                    + (cancelling.map { ", " + SlotLog.cancelled($0.0, standing: $0.1) } ?? ""))
            slotForItem[index] = slot
            lastUse[slot.id] = clock
            bound.append(slot)
        }
        return bound
    }

    /// Frees every slot (the list was replaced or the thumbnail size changed), cancelling their loads.
    func unbindAll() {
        for slot in slots where slot.boundItem != nil { free(slot) }
        slotForItem.removeAll()
    }

    /// Frees every slot, cancelling their loads, and keeps only the first `count` (the thumbnails changed size, so
    /// the rows on screen changed and every picture must be drawn anew; the next `bind` grows the pool if it needs).
    func releaseAll(keeping count: Int) {
        unbindAll()
        guard slots.count > count else { return }
        for slot in slots[count...] { lastUse[slot.id] = nil }
        slots.removeSubrange(count...)
    }

    /// Frees the slot bound to an item (the item changed), cancelling its load; the next update binds it anew.
    func unbind(item index: Int) {
        if let slot = slotForItem.removeValue(forKey: index) { free(slot) }
    }

    /// Frees the slots still loading for rows the scroll has flown past, cancelling their loads so that their
    /// downloads give way to the rows on screen; the naive policy keeps them (its bug is leaving loads running).
    /// - Parameter standing: where a download stands, for the log (see `bind`).
    func freeLoading(flownPast: (Int) -> Bool, standing: (URL) -> DownloadStanding? = { _ in nil }) {
        guard policy.cancelsOnReuse else { return }
        for slot in slots where slot.isLoading {
            guard let item = slot.boundItem, flownPast(item), let url = slot.imageURL else { continue }
            let stood = standing(url)
            slotForItem[item] = nil
            slot.prepareForReuse()
            log.add(slot: slot.id, SlotLog.row(item) + " flown past, " + SlotLog.cancelled(url, standing: stood))
        }
    }

    /// Frees a slot, cancelling its load, and logs it if a load was cancelled.
    private func free(_ slot: RowSlot) {
        let item = slot.boundItem, url = slot.imageURL
        guard slot.prepareForReuse(), let item, let url else { return }
        log.add(slot: slot.id, SlotLog.row(item) + " freed, " + SlotLog.cancelled(url, standing: nil))
    }

    /// Whether any slot bound to one of these items is loading.
    public func isLoading(anyOf indices: some Sequence<Int>) -> Bool {
        indices.contains { slotForItem[$0]?.thumbnail.isLoading == true }
    }

    private func leastRecentlyUsed(excluding wanted: Set<Int>) -> RowSlot {
        var best: RowSlot?
        var bestUse = UInt64.max
        for slot in slots {
            if let bound = slot.boundItem, wanted.contains(bound) { continue }
            let use = slot.boundItem == nil ? 0 : lastUse[slot.id, default: 0]
            if use < bestUse { best = slot; bestUse = use }
        }
        // There are always more slots than visible rows (see `bind`), so one is free or off screen.
        return best!
    }
}
