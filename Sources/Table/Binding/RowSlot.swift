import Cells
import FoundationEssentials

/// A reusable row: the terminal counterpart of a reused table-view cell.
///
/// A slot is bound to one row at a time. Binding it to another row cancels the old row's thumbnail task
/// (`prepareForReuse`) and bumps `bindingGeneration`; a result is applied only if it carries the generation the slot
/// still has, so a late result can never paint the wrong row.
@MainActor
public final class RowSlot {
    public let id: Int
    /// The index of the bound item in the list of loaded items, or nil while the slot is free.
    public private(set) var boundItem: Int?
    /// Bumped on every bind: results from an earlier binding are dropped.
    public private(set) var bindingGeneration = 0
    public private(set) var thumbnail: ThumbnailState = .none
    /// The URL of the thumbnail being shown or loaded.
    public private(set) var imageURL: URL?
    /// What last happened to the slot, for the reuse overlay.
    public private(set) var event: Event = .free
    /// Loads cancelled because the slot was reused or reloaded before they finished.
    public private(set) var cancellations = 0
    /// The item whose load produced the picture shown (nil: none shown): another than `boundItem` is a wrong picture.
    public private(set) var paintedItem: Int?
    private var task: Task<Void, Never>?
    private let counters: SlotCounters
    private let log: SlotLog
    private let changed: ChangeSignal
    /// `.safe` everywhere but the naive side of `demo --compare`.
    private let policy: SlotBindingPolicy

    /// What last happened to a slot, in the words the overlay shows. A picture on screen says where it came from
    /// (from memory, from disk, downloaded), or "painted" when the loader did not say.
    public enum Event: String, Sendable, CaseIterable {
        case free, loading, cancelled, painted, failed
        case fromMemory = "from memory"
        case fromDisk = "from disk"
        case downloaded
        case noImage = "no image"

        /// A picture shown, from where it came.
        init(origin: ThumbnailOrigin?) {
            switch origin {
            case .memory: self = .fromMemory
            case .disk: self = .fromDisk
            case .network: self = .downloaded
            case nil: self = .painted
            }
        }
    }

    init(id: Int, counters: SlotCounters, log: SlotLog, changed: ChangeSignal, policy: SlotBindingPolicy = .safe) {
        self.id = id
        self.counters = counters
        self.log = log
        self.changed = changed
        self.policy = policy
    }

    /// Whether a load is under way (so reusing the slot cancels it).
    public var isLoading: Bool { task != nil }

    /// Makes the slot ready for another row: cancels its task and forgets its picture.
    /// - Returns: whether a load was under way and got cancelled.
    @discardableResult
    func prepareForReuse() -> Bool {
        // The naive policy leaves the old load running: its late result is the bug `demo --compare` shows.
        let cancelled = task != nil && policy.cancelsOnReuse
        if cancelled { task?.cancel() }
        task = nil
        if cancelled {
            cancellations += 1
            counters.loadsCancelled += 1
        }
        event = cancelled ? .cancelled : .free
        thumbnail = .none
        paintedItem = nil
        boundItem = nil
        imageURL = nil
        return cancelled
    }

    /// Binds the slot to an item whose row image is `url`; the binder then shows its picture or starts its load.
    func bind(to index: Int, imageURL url: URL?) {
        bindingGeneration += 1
        boundItem = index
        imageURL = url
        if url == nil {
            thumbnail = .none
            event = .noImage
        }
    }

    /// Shows that the bound row's picture could not be looked up (it has no URL to load).
    func showLookupFailure(_ reason: String) {
        thumbnail = .lookupFailed(reason)
        event = .failed
    }

    /// Shows the bound row's picture at once: the loader had it in memory.
    func show(_ picture: CellBuffer) {
        thumbnail = .loaded(picture)
        paintedItem = boundItem
        event = .fromMemory
        if let boundItem { log.add(slot: id, SlotLog.row(boundItem) + " from memory") }
    }

    /// Awaits the bound row's load; its result is painted only if the slot is still bound the same way then.
    func start(_ load: ThumbnailLoad) {
        guard let index = boundItem else { return }
        thumbnail = .loading
        event = .loading
        counters.loadsStarted += 1
        let generation = bindingGeneration
        let report = ThumbnailLoadReport()
        task = Task { [weak self] in
            let state = await ThumbnailLoadReport.$current.withValue(report) { await ThumbnailState.load(load) }
            guard let state else { return }
            self?.apply(state, origin: report.origin, generation: generation, item: index)
        }
    }

    /// Loads the thumbnail again (after a failure, or on the user's `r`), cancelling the load under way.
    func reload(_ load: ThumbnailLoad) {
        guard boundItem != nil, imageURL != nil else { return }
        if task != nil { cancellations += 1 }
        task?.cancel()
        bindingGeneration += 1
        start(load)
    }

    /// Applies a finished load if the slot is still bound the way it was when the load started.
    private func apply(_ state: ThumbnailState, origin: ThumbnailOrigin?, generation: Int, item: Int) {
        guard generation == bindingGeneration || !policy.checksGeneration, !Task.isCancelled else {
            counters.staleResultsDropped += 1
            log.add(slot: id, "late picture for \(SlotLog.row(item)) dropped")
            // Nothing on the rows changes, but the overlay's counters and log do.
            changed.send()
            return
        }
        // Cannot happen while the generation check holds; counted so tests and --stats-file can prove it.
        if boundItem != item { counters.wrongPaints += 1 }
        paintedItem = item
        thumbnail = state
        // A naive late result leaves the current binding's load (if any) running and in hand.
        if generation == bindingGeneration { task = nil }
        if case .failed(let reason) = state {
            event = .failed
            log.add(slot: id, SlotLog.row(item) + " failed: " + TerminalText.visible(reason))
        } else {
            event = Event(origin: origin)
            log.add(slot: id, SlotLog.row(item) + " " + event.rawValue)
        }
        changed.send()
    }
}
