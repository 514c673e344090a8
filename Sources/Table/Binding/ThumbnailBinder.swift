import Cells
import FoundationEssentials
import Items

/// Keeps the thumbnails in line with the screen: binds row slots to the rows on screen, starting and cancelling
/// their loads, warms the rows around them, and loads the detail pane's image. It owns the slot pool, the loader,
/// the counters and the change callback, so nothing below it is handed them on each call.
@MainActor
final class ThumbnailBinder {
    let pool: SlotPool
    let loader: any ThumbnailLoading
    /// Whether to warm the rows around the screen (see `PrefetchWindow` for which).
    private let prefetches: Bool
    /// The rows on screen, the loaded count and whether the scroll was at rest when the last prefetch was computed,
    /// and the rows it warms.
    private var prefetchedAround: (rows: Range<Int>, loaded: Int, atRest: Bool)?
    private var warming: Set<Int> = []
    /// How fast the screen moves, measured on `clock`.
    private var pace = ScrollPace()
    private let clock: @Sendable () -> ContinuousClock.Instant
    /// Wakes the table when the scroll comes to rest, so the rest's prefetch is computed.
    private var restWake: (at: ContinuousClock.Instant, task: Task<Void, Never>)?
    /// The thumbnail size the slots were bound at: pictures of another size are drawn anew.
    private var boundSize: CellSize?
    /// Set when the size changed: the prefetch waits until the rows on screen are drawn at the new size.
    private var prefetchWaitsForScreen = false
    private let changed: ChangeSignal
    /// The detail pane's image load, and its generation: a result from an earlier load is dropped.
    private var paneImageTask: Task<Void, Never>?
    private var paneImageGeneration = 0
    /// The detail pane's animation: looked up once its picture shows, then played (`PaneAnimation`).
    private var paneAnimationLookup: Task<Void, Never>?
    let paneAnimation = PaneAnimation()
    /// Where the pane's animation frames come from while its picture is drawn in pixels: given the URL and the
    /// cells of the first frame's text art, a source of frames with empty cells (the text art stays; the pane's
    /// `animationFrame` says which frame the pixels show). Nil: the frames play as text art.
    var pixelAnimation: (@MainActor (URL, CellSize) async -> (any AnimationFrameSource)?)?

    init(loader: any ThumbnailLoading, margin: Int, prefetches: Bool, counters: SlotCounters,
         changed: ChangeSignal, policy: SlotBindingPolicy = .safe,
         clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.loader = loader
        self.prefetches = prefetches
        self.clock = clock
        self.changed = changed
        self.pool = SlotPool(margin: margin, counters: counters, changed: changed, policy: policy)
    }

    private var counters: SlotCounters { pool.counters }

    /// Binds slots to the rows on screen (starting the loads of rows bound anew, cancelling those of the slots they
    /// took) and warms the rows around them. When the thumbnails changed size (a zoom, a resize), every slot is
    /// freed first and the old-size prefetch stopped, their loads cancelled, and the pool keeps only as many slots as
    /// the screen now needs; the new size's prefetch waits until the rows on screen are drawn, so its renders do not
    /// compete with theirs.
    func update(visible: Range<Int>, list: ListState, size: CellSize) {
        let now = clock()
        pace.record(top: visible.lowerBound, at: now)
        if size != boundSize {
            if let old = boundSize {
                pool.releaseAll(keeping: visible.count + pool.margin)
                if prefetches { loader.prefetch([], size: old) }
                prefetchedAround = nil
                warming = []
                prefetchWaitsForScreen = true
            }
            boundSize = size
        }
        let rows = visible.compactMap { row in list.itemIndex(forRow: row).map { ($0, list.items[$0].rowImageURL) } }
        for slot in pool.bind(visible: rows, standing: loader.download(of:)) {
            guard let url = slot.imageURL else {
                if let index = slot.boundItem, let failure = list.items[index].imageLookupFailure {
                    slot.showLookupFailure(failure)
                }
                continue
            }
            switch loader.thumbnail(url, size: size) {
            case .ready(let picture): slot.show(picture)
            case let load: slot.start(load)
            }
        }
        let speed = pace.rowsPerSecond(at: now)
        let flying = PrefetchWindow.isFlying(rowsOnScreen: visible.count, rowsPerSecond: speed)
        if flying, let first = rows.first?.0, let last = rows.last?.0 {
            let up = pace.movingUp
            pool.freeLoading(flownPast: { up ? $0 > last : $0 < first }, standing: loader.download(of:))
            // Pictures in pixels wait for the screen the scroll stops on: wake then, prefetching or not.
            if let rest = pace.restsAt(after: now) { wake(at: rest, now: now) }
        }
        if prefetchWaitsForScreen, pool.isLoading(anyOf: rows.map(\.0)) { return }
        prefetchWaitsForScreen = false
        if prefetches { prefetch(around: visible, list: list, size: size, speed: speed, now: now) }
    }

    /// Whether the rows pass faster than they can be seen now (`PrefetchWindow.isFlying`).
    func isFlying(rowsOnScreen: Int) -> Bool {
        PrefetchWindow.isFlying(rowsOnScreen: rowsOnScreen, rowsPerSecond: pace.rowsPerSecond(at: clock()))
    }

    /// Loads an item's thumbnail again, a remembered failure forgotten, if a slot shows it. Returns whether one does.
    func reload(item index: Int, size: CellSize) -> Bool {
        guard let slot = pool.slot(forItem: index) else { return false }
        if let url = slot.imageURL {
            loader.forgetFailure(url)
            slot.reload(loader.thumbnail(url, size: size))
        }
        return true
    }

    /// Frees an item's slot (the item changed); the next update binds it anew.
    func forget(item index: Int) {
        pool.unbind(item: index)
    }

    /// The rows changed under the same screen (a filter): the next update prefetches anew.
    func rowsChanged() {
        prefetchedAround = nil
        warming = []
    }

    /// Stops every thumbnail load: the prefetch, the slots' and the detail pane's.
    func cancelAll(size: CellSize?) {
        if let size { loader.prefetch([], size: size) }
        pool.unbindAll()
        cancelPaneImage()
    }

    // MARK: The detail pane's image

    /// Loads the detail pane's image at `box`, cancelling the load under way: shown at once when in memory, else
    /// awaited and counted with the slots' loads. A full-size image that fails falls back to the small one (see
    /// `DetailPane.fallsBack`).
    func loadImage(of pane: DetailPane, box: CellSize) {
        cancelPaneImage()
        guard let url = pane.imageURL else { return }
        pane.imageLoading(box: box)
        paneImageGeneration += 1
        let generation = paneImageGeneration
        let load = loader.thumbnail(url, size: box)
        if case .ready(let picture) = load {
            pane.imageArrived(.loaded(picture))
            playAnimation(of: pane, url: url, box: box)
            return
        }
        counters.loadsStarted += 1
        paneImageTask = Task { [weak self, weak pane] in
            guard let state = await ThumbnailState.load(load) else { return }
            guard let self, let pane else { return }
            guard generation == self.paneImageGeneration, !Task.isCancelled else {
                self.counters.staleResultsDropped += 1
                return
            }
            self.paneImageTask = nil
            if case .failed(let reason) = state, pane.fallsBack(from: url, after: reason) {
                self.loadImage(of: pane, box: box)
                return
            }
            pane.imageArrived(state)
            if case .loaded = state { self.playAnimation(of: pane, url: url, box: box) }
            self.changed.send()
        }
    }

    /// Plays the pane's picture when it is an animation: asks the loader (or, in pixels, `pixelAnimation`), then
    /// shows each frame in the pane.
    private func playAnimation(of pane: DetailPane, url: URL, box: CellSize, paused: Bool = false) {
        let generation = paneImageGeneration
        let pixels = pixelAnimation
        guard pixels == nil || pane.pictureCells != nil else { return }
        let cells = pane.pictureCells
        paneAnimationLookup = Task { [weak self, weak pane] in
            let source = if let pixels, let cells { await pixels(url, cells) } else {
                await self?.loader.animation(url, size: box)
            }
            guard let source else { return }
            guard let self, let pane, generation == self.paneImageGeneration, !Task.isCancelled else { return }
            self.paneAnimationLookup = nil
            pane.animationPlaying(true)
            self.paneAnimation.play(source) { [weak self, weak pane] cells in
                if pixels == nil { pane?.imageArrived(.loaded(cells)) }
                pane?.animationFrameShown()
                self?.changed.send()
            } ended: { [weak self, weak pane] in
                pane?.animationEnded()
                self?.changed.send()
            }
            if paused {
                self.paneAnimation.togglePause()
                pane.animationPlaying(false)
            }
        }
    }

    /// Plays the pane's animation again from its first frame, paused if it was, when one plays in pixels: the
    /// terminal forgot its frames (the screen was given back, Ctrl-Z) or their pixel size changed (the font's).
    func replayPixelAnimation(of pane: DetailPane) {
        guard pixelAnimation != nil, paneAnimation.isActive, let url = pane.imageURL, let box = pane.imageBox else {
            return
        }
        let paused = paneAnimation.isPaused
        paneAnimation.stop()
        pane.restartAnimation()
        playAnimation(of: pane, url: url, box: box, paused: paused)
    }

    /// Pauses the pane's animation, or plays it again; false when none plays.
    func togglePaneAnimation(of pane: DetailPane) -> Bool {
        guard paneAnimation.isActive else { return false }
        paneAnimation.togglePause()
        pane.animationPlaying(!paneAnimation.isPaused)
        return true
    }

    /// Cancels the detail pane's image load (the pane closed or loads again).
    func cancelPaneImage() {
        paneAnimationLookup?.cancel()
        paneAnimationLookup = nil
        paneAnimation.stop()
        guard let task = paneImageTask else { return }
        task.cancel()
        paneImageTask = nil
        counters.loadsCancelled += 1
    }

    /// Forgets an item's images in every cache (the `d` key): the full-size one and the row's thumbnail. Returns
    /// how many there were.
    func removeFromCache(imagesOf item: Item) -> Int {
        let urls = Set([item.imageURL, item.thumbnailURL].compactMap(\.self))
        for url in urls { loader.removeFromCache(url) }
        return urls.count
    }

    private func prefetch(around visible: Range<Int>, list: ListState, size: CellSize, speed: Double,
                          now: ContinuousClock.Instant) {
        if let last = prefetchedAround, last.rows == visible, last.loaded == list.items.count,
           last.atRest == (speed <= 0) { return }
        prefetchedAround = (visible, list.items.count, speed <= 0)
        let window = PrefetchWindow(visible: visible, rowCount: list.itemCount, movingUp: pace.movingUp,
                                    rowsPerSecond: speed, latency: loader.typicalLatency)
        let rows = window.rows(warming: warming)
        warming = Set(rows)
        let urls = rows.compactMap { row in list.itemIndex(forRow: row).flatMap { list.items[$0].rowImageURL } }
        loader.prefetch(urls, size: size)
        if let rest = pace.restsAt(after: now) { wake(at: rest, now: now) }
    }

    /// Asks for an update at `instant` (when the scroll will have come to rest, unless it moves again).
    private func wake(at instant: ContinuousClock.Instant, now: ContinuousClock.Instant) {
        if let restWake, restWake.at == instant { return }
        restWake?.task.cancel()
        let delay = instant - now
        restWake = (instant, Task { [weak self] in
            guard (try? await Task.sleep(for: delay)) != nil, let self else { return }
            self.restWake = nil
            self.changed.send()
        })
    }
}
