import Cells
import Foundation
import Items

/// What a slot's thumbnail block shows.
public enum ThumbnailState: Sendable, Equatable {
    /// The item has no image.
    case none
    /// A load is under way.
    case loading
    /// The picture, ready to draw.
    case loaded(CellBuffer)
    /// The load failed; the reason is shown in the detail pane.
    case failed(String)

    public var isLoading: Bool { if case .loading = self { true } else { false } }

    /// Waits for a picture: `.loaded`, or `.failed` with the reason; nil when the load was cancelled.
    static func load(_ load: ThumbnailLoad) async -> ThumbnailState? {
        do {
            return .loaded(try await load.value())
        } catch is CancellationError where Task.isCancelled {
            // Only our own cancellation is silent; a load cancelled from elsewhere is a failure the user can retry.
            return nil
        } catch {
            return .failed(String(describing: error))
        }
    }
}

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
    private var task: Task<Void, Never>?

    /// What last happened to a slot.
    public enum Event: String, Sendable {
        case free, loading, cancelled, cached, painted, failed
        case noImage = "no image"
    }

    init(id: Int) {
        self.id = id
    }

    /// Makes the slot ready for another row: cancels its task and forgets its picture.
    /// - Returns: whether a load was under way and got cancelled.
    @discardableResult
    func prepareForReuse() -> Bool {
        let cancelled = task != nil
        task?.cancel()
        task = nil
        if cancelled { cancellations += 1 }
        event = cancelled ? .cancelled : .free
        thumbnail = .none
        boundItem = nil
        imageURL = nil
        return cancelled
    }

    /// Binds the slot to an item and starts loading its thumbnail.
    func bind(to index: Int, item: Item, size: CellSize, loader: any ThumbnailLoading,
              counters: SlotCounters, onChange: @escaping @MainActor () -> Void) {
        bindingGeneration += 1
        boundItem = index
        imageURL = item.rowImageURL
        guard let url = item.rowImageURL else {
            thumbnail = .none
            event = .noImage
            return
        }
        let load = loader.thumbnail(url, size: size)
        if case .ready(let picture) = load {
            thumbnail = .loaded(picture)
            event = .cached
            return
        }
        startLoad(load, index: index, counters: counters, onChange: onChange)
    }

    /// Loads the thumbnail again (after a failure, or on the user's `r`).
    func reload(size: CellSize, loader: any ThumbnailLoading, counters: SlotCounters,
                onChange: @escaping @MainActor () -> Void) {
        guard let index = boundItem, let url = imageURL else { return }
        if task != nil { cancellations += 1 }
        task?.cancel()
        bindingGeneration += 1
        startLoad(loader.thumbnail(url, size: size), index: index, counters: counters, onChange: onChange)
    }

    private func startLoad(_ load: ThumbnailLoad, index: Int, counters: SlotCounters,
                           onChange: @escaping @MainActor () -> Void) {
        thumbnail = .loading
        event = .loading
        counters.requestsStarted += 1
        let generation = bindingGeneration
        task = Task { [weak self] in
            guard let state = await ThumbnailState.load(load) else { return }
            self?.apply(state, generation: generation, item: index, counters: counters, onChange: onChange)
        }
    }

    /// Applies a finished load if the slot is still bound the way it was when the load started.
    func apply(_ state: ThumbnailState, generation: Int, item: Int, counters: SlotCounters,
               onChange: @MainActor () -> Void) {
        guard generation == bindingGeneration, !Task.isCancelled else {
            counters.staleResultsDropped += 1
            return
        }
        // Cannot happen while the generation check holds; counted so tests and --stats-file can prove it.
        if boundItem != item { counters.wrongPaints += 1 }
        thumbnail = state
        task = nil
        if case .failed = state {
            counters.requestsFailed += 1
            event = .failed
        } else {
            counters.requestsCompleted += 1
            event = .painted
        }
        onChange()
    }
}

/// Counts that prove slot reuse is correct.
@MainActor
public final class SlotCounters {
    public var slotReuses = 0
    public var requestsStarted = 0
    public var requestsCancelled = 0
    public var requestsCompleted = 0
    public var requestsFailed = 0
    public var staleResultsDropped = 0
    /// Paints into a slot bound to another row than the one that asked: must stay 0.
    public var wrongPaints = 0
    public init() {}
}
