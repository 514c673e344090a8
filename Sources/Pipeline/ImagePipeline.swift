import Cells
import Codecs
import FoundationEssentials
import LocalFiles
import Pixels
import Synchronization

/// Turns thumbnail requests into rendered cell grids: what you can ask of the pipeline. The stages live in the
/// folders beside this file.
///
/// - `thumbnail(_:priority:)` looks at the memory cache of rendered grids once and answers at once, or hands back
///   the work to await: a render job (`Processing/`), shared by equal requests through a `JobPool` (`Jobs/`).
/// - A render job takes a bitmap from memory or decodes the image's bytes, which come from memory, the disk cache
///   (`Caching/`) or a download shared by every job of that URL (`Loading/`). A job ends when its last subscriber
///   leaves, and its download is cancelled down to the socket.
/// - Downloads start in priority order (visible rows first), at most `maxDownloads` at once and
///   `maxDownloadsPerHost` per host. A third of the slots are kept for visible rows, and a visible row that still
///   finds none preempts a download that has received nothing for `preemptsStalledAfter`: a less urgent one, or
///   another visible row's first attempt, so rows whose servers never answer take turns with the others.
/// - Rendered grids, decoded bitmaps and downloaded bytes stay in byte-cost LRU memory caches, shed under memory
///   pressure (`watchMemory`); bytes also go to the disk cache, which is revalidated over HTTP when stale.
///   Decoding and rendering run off this actor, with cancellation checked between the steps.
/// - A permanent failure (a 404, bytes that do not decode) is remembered for the run and answered without a request
///   until `forgetFailure`.
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
    /// Permanent failures (a 404, bytes that do not decode) by URL, answered again without a request until
    /// `forgetFailure` or `removeFromCaches`; the oldest go first past `rememberedFailuresLimit`.
    nonisolated let rememberedFailures = MemoryCache<URL, PipelineError>(costLimit: rememberedFailuresLimit)
    let diskCache: DiskCache?
    let loader: any DataLoading
    let processing: ImageProcessing

    /// The render jobs, one per request, and the downloads, one per URL.
    let renderJobs = JobPool<ThumbnailRequest, RenderedThumbnail>()
    let downloadJobs = JobPool<URL, CachedBytes>()
    /// The jobs of pictures wanted in pixels (`Processing/ImagePipeline+Pixels.swift`), one per request.
    let pixelJobs = JobPool<PixelRequest, Bitmap>()
    /// How far each download under way has got, for `downloadProgress(of:)`.
    nonisolated let underWay = DownloadsUnderWay()
    /// How long downloads take, for `typicalDownloadTime`.
    nonisolated let downloadTime = DownloadTime()
    /// The requests being awaited for each URL, with how many callers await each: a download is as urgent as the
    /// most urgent of them (see `priority(of:)`), found without scanning every job.
    var renderRequestsByURL: [URL: [ThumbnailRequest: Int]] = [:]
    var downloadQueue: DownloadQueue
    /// The pending look at the queue for downloads that will have stalled by then (see `rebalanceDownloads`).
    var rebalance: (at: ContinuousClock.Instant, task: Task<Void, Never>)?
    /// The prefetches under way; the token tells a prefetch from a later one of the same request.
    var prefetches: [ThumbnailRequest: (token: Int, task: Task<Void, Never>)] = [:]
    var nextPrefetchToken = 0
    /// The newest prefetch set, waiting for the actor (see `requestPrefetch`).
    nonisolated let pendingPrefetch = PendingPrefetch()
    /// The memory-pressure watch, while one runs (see `watchMemory`).
    var memoryWatch: Task<Void, Never>?
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

    /// The rendered thumbnail for a request: ready if it is in memory now (synchronous, so a row scrolled back
    /// into view is drawn in the same frame), else the work to await, which throws `PipelineError` or
    /// `CancellationError`. The memory cache of rendered thumbnails is looked at here, and once more when the work
    /// starts (an equal request's job may have finished in between); a hit is counted where it is found.
    public nonisolated func thumbnail(_ request: ThumbnailRequest,
                                      priority: RequestPriority = .visible) -> ThumbnailLoad {
        if let cells = rendered.value(for: request) {
            counters.add(\.memoryHits)
            return .ready(cells)
        }
        return .pending { try await self.load(request, priority: priority) }
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
            nextPrefetchToken += 1
            let token = nextPrefetchToken
            prefetches[request] = (token, Task {
                _ = try? await self.thumbnail(request, priority: .prefetch).value()
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

    /// Waits for the disk cache's trims under way, off the cooperative pool: for a run about to end (the print mode,
    /// once its screen is out), so that many short runs still keep the cache within its limit.
    public nonisolated func finishDiskCacheTrims() async {
        guard let diskCache else { return }
        await BlockingIO.run { diskCache.waitForTrims() }
    }

    /// The most failures remembered: a few hundred kilobytes at most, however many rows fail.
    static let rememberedFailuresLimit = 4096

    /// Forgets a failure remembered for `url` (the `r` key): the next request fetches it again.
    public nonisolated func forgetFailure(_ url: URL) {
        rememberedFailures.removeValue(for: url)
    }

    /// Forgets an image everywhere: memory (a failure remembered included) and disk. The next request fetches it
    /// again.
    public nonisolated func removeFromCaches(_ url: URL) {
        rememberedFailures.removeValue(for: url)
        rendered.removeAll { $0.url == url }
        bitmaps.removeAll { $0.url == url }
        downloads.removeValue(for: url)
        diskCache?.remove(url)
    }

    /// Stops every job and prefetch.
    public func cancelAll() {
        for prefetch in prefetches.values { prefetch.task.cancel() }
        prefetches.removeAll()
        renderJobs.cancelAll()
        pixelJobs.cancelAll()
        downloadJobs.cancelAll()
        rebalance?.task.cancel()
        rebalance = nil
        memoryWatch?.cancel()
        memoryWatch = nil
    }

}
