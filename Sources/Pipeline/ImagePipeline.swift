import Cells
import Codecs
import Foundation
import LocalFiles
import Synchronization

/// Turns thumbnail requests into rendered cell grids: the one coordinator that starts, coalesces, prioritises,
/// limits, retries and cancels work, and keeps the caches.
///
/// - Equal requests share one render job; requests for the same URL share one download. A job ends when its last
///   subscriber leaves, and its download is cancelled down to the socket.
/// - Downloads start in priority order (visible rows first), at most `maxDownloads` at once and
///   `maxDownloadsPerHost` per host. A third of the slots are kept for visible rows, and a visible row that still
///   finds none preempts a download that has received nothing for `preemptsStalledAfter`: a less urgent one, or
///   another visible row's first attempt, so rows whose servers never answer take turns with the others.
/// - Rendered grids, decoded bitmaps and downloaded bytes stay in byte-cost LRU memory caches; bytes also go to the
///   disk cache. Decoding and rendering run off this actor, with cancellation checked between the steps.
public actor ImagePipeline {
    public struct Configuration: Sendable {
        public var maxDownloads: Int
        public var maxDownloadsPerHost: Int
        /// The memory caches' budget in bytes, shared out between rendered grids, bitmaps and bytes.
        public var memoryCacheBytes: Int
        public var limits: LoadLimits
        public var retry: RetryPolicy
        /// How long a download may go without a byte before a more urgent waiting download (or, on first attempts,
        /// an equally urgent one) takes its slot; the preempted download goes back to waiting.
        public var preemptsStalledAfter: Duration

        public init(maxDownloads: Int = 6, maxDownloadsPerHost: Int = 6, memoryCacheBytes: Int = 64 << 20,
                    limits: LoadLimits = .default, retry: RetryPolicy = RetryPolicy(),
                    preemptsStalledAfter: Duration = .seconds(1)) {
            self.maxDownloads = max(1, maxDownloads)
            self.maxDownloadsPerHost = max(1, maxDownloadsPerHost)
            self.memoryCacheBytes = memoryCacheBytes
            self.limits = limits
            self.retry = retry
            self.preemptsStalledAfter = preemptsStalledAfter
        }
    }

    public nonisolated let configuration: Configuration
    public nonisolated let counters = PipelineCounters()
    nonisolated let rendered: MemoryCache<ThumbnailRequest, CellBuffer>
    nonisolated let bitmaps: MemoryCache<BitmapKey, DecodedImage>
    /// Image bytes, and whether they came from the disk cache (so a damaged entry is refetched by every job).
    nonisolated let downloads: MemoryCache<URL, CachedBytes>
    let diskCache: DiskCache?
    let loader: any DataLoading
    let processing: ImageProcessing

    struct CachedBytes: Sendable {
        var data: LoadedData
        var fromDisk: Bool
    }

    struct BitmapKey: Hashable, Sendable {
        var url: URL
        var target: PixelSize
    }

    /// Work shared by several subscribers; cancelled when the last one leaves.
    final class Job<Value: Sendable> {
        var subscribers: [Int: (priority: RequestPriority, continuation: CheckedContinuation<Value, any Error>)] = [:]
        var task: Task<Void, Never>?
        var priority: RequestPriority { subscribers.values.map(\.priority).max() ?? .prefetch }
    }

    var renderJobs: [ThumbnailRequest: Job<CellBuffer>] = [:]
    var downloadJobs: [URL: Job<LoadedData>] = [:]
    /// How each subscriber leaves its job, by subscriber id.
    var leaving: [Int: () -> Void] = [:]
    var nextID = 0
    var downloadQueue: DownloadQueue
    /// The pending look at the queue for downloads that will have stalled by then (see `rebalanceDownloads`).
    var rebalance: (at: ContinuousClock.Instant, task: Task<Void, Never>)?
    var prefetches: [ThumbnailRequest: (token: Int, task: Task<Void, Never>)] = [:]
    /// The render jobs of each URL, so a download's priority is found without scanning every job.
    var renderRequestsByURL: [URL: Set<ThumbnailRequest>] = [:]
    /// The newest prefetch set, waiting for the actor (see `requestPrefetch`).
    nonisolated let pendingPrefetch = PendingPrefetch()
    /// Set when a disk cache write failed: the cache is then read but no longer written.
    var diskWritesOff = false
    nonisolated let diskCacheOffHandler = Mutex<(@Sendable (DiskCache.Error) -> Void)?>(nil)

    public init(configuration: Configuration = Configuration(), loader: any DataLoading,
                diskCache: DiskCache? = nil, processing: ImageProcessing = .live) {
        self.configuration = configuration
        self.loader = loader
        self.diskCache = diskCache
        self.processing = processing
        // Rendered grids are what scrolling back needs at once; bitmaps and bytes make a resize or a mode change
        // re-render without refetching.
        let budget = max(0, configuration.memoryCacheBytes)
        rendered = MemoryCache(costLimit: budget / 4)
        bitmaps = MemoryCache(costLimit: budget / 2)
        downloads = MemoryCache(costLimit: budget / 4)
        downloadQueue = DownloadQueue(maxTotal: configuration.maxDownloads,
                                      maxPerHost: configuration.maxDownloadsPerHost)
    }

    // MARK: Requests

    /// The rendered thumbnail for a request, if it is in memory now. Synchronous, so a row scrolled back into view
    /// is drawn in the same frame.
    public nonisolated func cachedThumbnail(_ request: ThumbnailRequest) -> CellBuffer? {
        guard let cells = rendered.value(for: request) else { return nil }
        counters.add(\.memoryHits)
        return cells
    }

    /// The rendered thumbnail for a request: from memory, or by joining or starting a job.
    /// - Throws: `PipelineError`, or `CancellationError` when the calling task is cancelled (which also cancels the
    ///   shared work if nobody else wants it).
    public func thumbnail(_ request: ThumbnailRequest, priority: RequestPriority = .visible) async throws
        -> CellBuffer {
        if let cells = cachedThumbnail(request) { return cells }
        let counted = priority != .prefetch
        if counted { counters.add(\.requestsStarted) }
        do {
            let cells = try await joinRenderJob(request, priority: priority)
            if counted { counters.add(\.requestsCompleted) }
            return cells
        } catch is CancellationError {
            counters.add(counted ? \.requestsCancelled : \.prefetchesCancelled)
            throw CancellationError()
        } catch {
            if counted { counters.add(\.requestsFailed) }
            throw error
        }
    }

    /// Keeps these requests warming at low priority; prefetches no longer listed are cancelled. Each call replaces
    /// the previous set.
    public func prefetch(_ requests: [ThumbnailRequest]) {
        let wanted = Set(requests)
        for (request, prefetch) in prefetches where !wanted.contains(request) {
            prefetch.task.cancel()
            prefetches[request] = nil
        }
        for request in requests where prefetches[request] == nil && !rendered.contains(request) {
            counters.add(\.prefetchesStarted)
            nextID += 1
            let token = nextID
            prefetches[request] = (token, Task {
                _ = try? await self.thumbnail(request, priority: .prefetch)
                self.prefetchEnded(request, token: token)
            })
        }
    }

    /// Hands a prefetch set to the pipeline from any thread. The set is taken on the actor, so whichever hand-over
    /// runs last there applies the newest set: the last call wins even if the tasks arrive out of order.
    public nonisolated func requestPrefetch(_ requests: [ThumbnailRequest]) {
        pendingPrefetch.put(requests)
        Task { await self.applyPendingPrefetch() }
    }

    private func applyPendingPrefetch() {
        if let requests = pendingPrefetch.take() { prefetch(requests) }
    }

    private func prefetchEnded(_ request: ThumbnailRequest, token: Int) {
        // A newer prefetch of the same request may have replaced this one.
        if prefetches[request]?.token == token { prefetches[request] = nil }
    }

    /// Sets what to call, once, when writing to the disk cache fails (a full disk, a folder gone read-only): the
    /// pipeline then stops writing to it, and the caller can say so.
    public nonisolated func onDiskCacheOff(_ handler: @escaping @Sendable (DiskCache.Error) -> Void) {
        diskCacheOffHandler.withLock { $0 = handler }
    }

    /// Forgets an image everywhere: memory and disk. The next request fetches it again.
    public nonisolated func removeFromCaches(_ url: URL) {
        rendered.removeAll { $0.url == url }
        bitmaps.removeAll { $0.url == url }
        downloads.removeValue(for: url)
        diskCache?.remove(url)
    }

    /// Stops every job and prefetch.
    public func cancelAll() {
        for prefetch in prefetches.values { prefetch.task.cancel() }
        prefetches.removeAll()
        // Forgotten as well as cancelled, so a later request starts afresh instead of joining a dying job.
        for job in renderJobs.values { job.task?.cancel() }
        for job in downloadJobs.values { job.task?.cancel() }
        renderJobs.removeAll()
        renderRequestsByURL.removeAll()
        downloadJobs.removeAll()
        rebalance?.task.cancel()
        rebalance = nil
    }

    // MARK: Render jobs

    private func joinRenderJob(_ request: ThumbnailRequest, priority: RequestPriority) async throws -> CellBuffer {
        if let job = renderJobs[request] {
            counters.add(\.coalesced)
            return try await subscribe(to: job, priority: priority) { self.removeRenderJob(job, request) }
        }
        let job = Job<CellBuffer>()
        renderJobs[request] = job
        renderRequestsByURL[request.url, default: []].insert(request)
        job.task = Task {
            let result: Result<CellBuffer, any Error>
            do { result = .success(try await self.makeThumbnail(request, job: job)) } catch { result = .failure(error) }
            self.finish(job, with: result) { self.removeRenderJob(job, request) }
        }
        return try await subscribe(to: job, priority: priority) { self.removeRenderJob(job, request) }
    }

    private func removeRenderJob(_ job: Job<CellBuffer>, _ request: ThumbnailRequest) {
        guard renderJobs[request] === job else { return }
        renderJobs[request] = nil
        renderRequestsByURL[request.url]?.remove(request)
        if renderRequestsByURL[request.url]?.isEmpty == true { renderRequestsByURL[request.url] = nil }
    }

    private func removeDownloadJob(_ job: Job<LoadedData>, _ url: URL) {
        if downloadJobs[url] === job { downloadJobs[url] = nil }
    }

    private func makeThumbnail(_ request: ThumbnailRequest, job: Job<CellBuffer>) async throws -> CellBuffer {
        let target = processing.decodeTarget(request)
        let key = BitmapKey(url: request.url, target: target)
        let image: DecodedImage
        // A decode's memory stays reserved until its bitmap is rendered: a huge bitmap waiting for its render holds
        // as much as one being decoded.
        var reserved = 0
        defer { processing.decodeBudget.release(reserved) }
        if let cached = bitmaps.value(for: key) {
            counters.add(\.memoryHits)
            image = cached
        } else {
            (image, reserved) = try await decodedImage(request, job: job)
            bitmaps.set(image, for: key, cost: image.bitmap.pixels.count + 64)
        }
        try Task.checkCancellation()
        let cells = await Self.render(image, request, with: processing)
        counters.add(\.renders)
        rendered.set(cells, for: request, cost: cells.cells.count * MemoryLayout<Cell>.stride + 64)
        return cells
    }

    /// Downloads (or reads from a cache) and decodes. A disk cache entry that does not decode is discarded and the
    /// image is fetched again, so a damaged cache file is never drawn.
    private func decodedImage(_ request: ThumbnailRequest,
                              job: Job<CellBuffer>) async throws -> (DecodedImage, reserved: Int) {
        let (data, fromDisk) = try await bytes(for: request.url)
        try Task.checkCancellation()
        do {
            return try await decode(data.bytes, for: request)
        } catch PipelineError.decode where fromDisk {
            counters.add(\.diskEntriesDiscarded)
            diskCache?.remove(request.url)
            downloads.removeValue(for: request.url)
            let (fresh, _) = try await bytes(for: request.url, skippingDisk: true)
            try Task.checkCancellation()
            return try await decode(fresh.bytes, for: request)
        }
    }

    private func decode(_ bytes: [UInt8],
                        for request: ThumbnailRequest) async throws -> (DecodedImage, reserved: Int) {
        let url = request.url
        do {
            return try await Self.decode(bytes, for: request, with: processing, counters: counters)
        } catch let error as DecodeError {
            switch error {
            case .inputTooLarge, .imageTooLarge, .needsTooMuchMemory:
                // The same bytes downloaded again would be refused again: not a damaged cache entry.
                throw PipelineError.overLimit(url: url, reason: error.description)
            default:
                throw PipelineError.decode(url: url, reason: error.description)
            }
        } catch let error as PipelineError {
            throw error
        } catch {
            throw PipelineError.decode(url: url, reason: String(describing: error))
        }
    }

    /// Decodes once the decode's memory is reserved from the budget concurrent decodes share (waiting while others
    /// hold it); the caller releases the `reserved` bytes when it is done with the bitmap.
    @concurrent
    private static func decode(_ bytes: [UInt8], for request: ThumbnailRequest, with processing: ImageProcessing,
                               counters: PipelineCounters) async throws -> (DecodedImage, reserved: Int) {
        counters.add(\.decodes)
        let memory = processing.decodeMemory(bytes, request)
        try await processing.decodeBudget.reserve(memory)
        do {
            return (try processing.decode(bytes, request), memory)
        } catch {
            processing.decodeBudget.release(memory)
            throw error
        }
    }

    /// Disk reads and writes (file I/O and a SHA-256) run off the actor, on the blocking-I/O threads: a slow disk
    /// must not hold the cooperative pool that serves the screen and the network.
    private static func read(_ url: URL, from diskCache: DiskCache) async -> DiskCache.Lookup {
        await BlockingIO.run { diskCache.lookup(url) }
    }

    private static func store(_ data: LoadedData, for url: URL, in diskCache: DiskCache) async -> DiskCache.Error? {
        await BlockingIO.run { diskCache.store(data, attribution: nil, for: url) }
    }

    /// Keeps downloaded bytes on disk, until a write fails: then says so once and stops writing, since a full or
    /// read-only folder would fail every later write too.
    private func storeOnDisk(_ data: LoadedData, for url: URL) async {
        guard !url.isFileURL, !diskWritesOff, let diskCache else { return }
        guard let error = await Self.store(data, for: url, in: diskCache), !diskWritesOff else { return }
        diskWritesOff = true
        diskCacheOffHandler.withLock { $0 }?(error)
    }

    @concurrent
    private static func render(_ image: DecodedImage, _ request: ThumbnailRequest,
                               with processing: ImageProcessing) async -> CellBuffer {
        processing.render(image, request)
    }

    // MARK: Downloads

    /// The bytes of a URL: from memory, from disk, or by joining or starting its download.
    private func bytes(for url: URL, skippingDisk: Bool = false) async throws -> (LoadedData, fromDisk: Bool) {
        if let cached = downloads.value(for: url), !(skippingDisk && cached.fromDisk) {
            counters.add(\.memoryHits)
            return (cached.data, cached.fromDisk)
        }
        if !skippingDisk, let diskCache, let entry = await diskEntry(url, in: diskCache) {
            counters.add(\.diskHits)
            let data = LoadedData(bytes: entry.bytes, contentType: entry.metadata.contentType,
                                  etag: entry.metadata.etag, lastModified: entry.metadata.lastModified)
            downloads.set(CachedBytes(data: data, fromDisk: true), for: url, cost: data.bytes.count + 64)
            return (data, true)
        }
        if let job = downloadJobs[url] {
            counters.add(\.coalesced)
            return (try await subscribe(to: job, priority: .prefetch) { self.removeDownloadJob(job, url) }, false)
        }
        let job = Job<LoadedData>()
        downloadJobs[url] = job
        job.task = Task {
            let result: Result<LoadedData, any Error>
            do { result = .success(try await self.download(url)) } catch { result = .failure(error) }
            self.finish(job, with: result) { self.removeDownloadJob(job, url) }
        }
        return (try await subscribe(to: job, priority: .prefetch) { self.removeDownloadJob(job, url) }, false)
    }

    private func diskEntry(_ url: URL, in diskCache: DiskCache) async -> DiskCache.Entry? {
        switch await Self.read(url, from: diskCache) {
        case .hit(let entry): return entry
        case .miss: return nil
        case .discarded:
            counters.add(\.diskEntriesDiscarded)
            return nil
        }
    }

    /// One download with its retries, each attempt waiting for a free download slot. An attempt preempted for
    /// another download goes back to waiting at once (see `DownloadQueue` for the turns it takes).
    private func download(_ url: URL) async throws -> LoadedData {
        let tally = ByteTally()
        let counters = self.counters
        var retry = 0
        // A retry has had its turns: it takes no slot from an equal, and gives its own to none.
        var turnsLost = 0
        while true {
            try Task.checkCancellation()
            let slot = try await acquireDownloadSlot(for: url, turnsLost: turnsLost)
            guard !Task.isCancelled, let activity = downloadQueue.running[slot]?.activity else {
                releaseDownloadSlot(slot)
                throw CancellationError()
            }
            counters.downloadStarted()
            let loader = self.loader, limits = configuration.limits
            // Its own task, so that preempting it leaves this download (and its subscribers) waiting for a slot.
            let attempt = Task {
                try await loader.load(url, limits: limits) { n in
                    activity.received()
                    tally.add(n)
                    counters.add(\.bytesDownloaded, n)
                }
            }
            downloadQueue.setPreempt(slot) { attempt.cancel() }
            let result = await withTaskCancellationHandler { await attempt.result } onCancel: { attempt.cancel() }
            counters.downloadEnded()
            releaseDownloadSlot(slot)
            switch result {
            case .success(let data):
                downloads.set(CachedBytes(data: data, fromDisk: false), for: url, cost: data.bytes.count + 64)
                await storeOnDisk(data, for: url)
                return data
            case .failure(let error as LoadError) where !Task.isCancelled:
                retry += 1
                guard let delay = configuration.retry.delay(beforeRetry: retry, after: error) else {
                    throw PipelineError.load(error)
                }
                counters.add(\.retries)
                turnsLost = DownloadQueue.maxTurnsLost
                try await configuration.retry.sleep(delay)
            case .failure where activity.isPreempted && !Task.isCancelled:
                counters.add(\.bytesDiscarded, tally.total)
                tally.reset()
                turnsLost += 1
            case .failure(let error):
                if error is CancellationError || Task.isCancelled {
                    counters.add(\.downloadsCancelled)
                    counters.add(\.bytesDiscarded, tally.total)
                    throw CancellationError()
                }
                throw error
            }
        }
    }

    /// A download is as urgent as the most urgent request waiting for its URL.
    private func priority(of url: URL) -> RequestPriority {
        var best = RequestPriority.prefetch
        for request in renderRequestsByURL[url] ?? [] {
            if let job = renderJobs[request] { best = max(best, job.priority) }
        }
        return best
    }

    /// Waits for a download slot for `url`; returns the slot's id, to release it with.
    private func acquireDownloadSlot(for url: URL, turnsLost: Int) async throws -> Int {
        nextID += 1
        let id = nextID
        if downloadQueue.canStart(url, priority: priority(of: url)) {
            downloadQueue.start(id, url, activity: DownloadActivity(turnsLost: turnsLost))
            return id
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard !Task.isCancelled else { return continuation.resume(throwing: CancellationError()) }
                downloadQueue.enqueue(.init(id: id, url: url, turnsLost: turnsLost, continuation: continuation))
                rebalanceDownloads()
            }
        } onCancel: {
            Task { await self.stopWaiting(id) }
        }
        return id
    }

    private func stopWaiting(_ id: Int) {
        downloadQueue.remove(id: id)?.continuation.resume(throwing: CancellationError())
    }

    private func releaseDownloadSlot(_ id: Int) {
        downloadQueue.finish(id)
        for waiter in downloadQueue.startWaiters(priority: priority(of:)) { waiter.continuation.resume() }
    }

    /// Makes way for urgent downloads: starts the waiters that fit now (a row that scrolled into view may have
    /// raised one's priority), and preempts a stalled download for each urgent waiter that still cannot start
    /// (see `DownloadQueue.preemption`). If none has stalled yet, looks again when the first would have.
    func rebalanceDownloads() {
        for waiter in downloadQueue.startWaiters(priority: priority(of:)) { waiter.continuation.resume() }
        let stalledAfter = configuration.preemptsStalledAfter
        let now = ContinuousClock.now
        var freeing = downloadQueue.slotsBeingFreed
        var nextLook: ContinuousClock.Instant?
        let urgent = downloadQueue.waiting.map { (waiter: $0, priority: priority(of: $0.url)) }
            .filter { $0.priority > .prefetch }
        for (waiter, waiterPriority) in urgent.sorted(by: { $0.priority > $1.priority }) {
            // Each slot being freed goes to the most urgent waiter.
            if freeing > 0 {
                freeing -= 1
                continue
            }
            switch downloadQueue.preemption(for: waiter, priority: waiterPriority, now: now,
                                            stalledAfter: stalledAfter, priorityOf: priority(of:)) {
            case .now(let victim):
                counters.add(\.downloadsPreempted)
                downloadQueue.takePreempt(victim)?()
            case .later(let at): nextLook = min(nextLook ?? at, at)
            case .never: break
            }
        }
        if let nextLook { scheduleRebalance(at: nextLook) }
    }

    private func scheduleRebalance(at instant: ContinuousClock.Instant) {
        if let rebalance, rebalance.at <= instant { return }
        rebalance?.task.cancel()
        rebalance = (instant, Task { [weak self] in
            guard (try? await Task.sleep(until: instant, clock: .continuous)) != nil else { return }
            await self?.rebalanceFired()
        })
    }

    private func rebalanceFired() {
        rebalance = nil
        rebalanceDownloads()
    }

    // MARK: Subscribers

    /// Waits for a job's result as one of its subscribers. If the caller is cancelled it leaves at once with
    /// `CancellationError`; the job is cancelled when its last subscriber leaves.
    private func subscribe<Value: Sendable>(to job: Job<Value>, priority: RequestPriority,
                                            onEmpty: @escaping () -> Void) async throws -> Value {
        nextID += 1
        let id = nextID
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                guard !Task.isCancelled else {
                    continuation.resume(throwing: CancellationError())
                    if job.subscribers.isEmpty { job.task?.cancel(); onEmpty() }
                    return
                }
                job.subscribers[id] = (priority, continuation)
                // A more urgent subscriber raises its download's priority: it may start, or preempt, now.
                if priority > .prefetch, !downloadQueue.waiting.isEmpty { rebalanceDownloads() }
                leaving[id] = { [unowned job] in
                    guard let subscriber = job.subscribers.removeValue(forKey: id) else { return }
                    subscriber.continuation.resume(throwing: CancellationError())
                    if job.subscribers.isEmpty {
                        job.task?.cancel()
                        onEmpty()
                    }
                }
            }
        } onCancel: {
            Task { await self.leave(id) }
        }
    }

    private func leave(_ id: Int) {
        leaving.removeValue(forKey: id)?()
    }

    private func finish<Value: Sendable>(_ job: Job<Value>, with result: Result<Value, any Error>,
                                         remove: () -> Void) {
        remove()
        let subscribers = job.subscribers
        job.subscribers.removeAll()
        for (id, subscriber) in subscribers {
            leaving[id] = nil
            subscriber.continuation.resume(with: result)
        }
    }
}

/// The newest prefetch set handed over from another thread, not yet applied.
final class PendingPrefetch: Sendable {
    private let latest = Mutex<[ThumbnailRequest]?>(nil)
    func put(_ requests: [ThumbnailRequest]) { latest.withLock { $0 = requests } }
    func take() -> [ThumbnailRequest]? { latest.withLock { value in defer { value = nil }; return value } }
}
