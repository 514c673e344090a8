import FoundationEssentials
import Synchronization

/// What the pipeline did, counted as it happens; read live by the overlay and written by `--stats-file`.
public final class PipelineCounters: Sendable {
    /// A copy of the counts at one moment.
    public struct Snapshot: Sendable, Equatable, Codable {
        /// Visible and batch thumbnail requests that the rendered-grid memory cache could not answer at once.
        public var requestsStarted = 0
        /// Started requests whose caller went away (a slot reused, a row scrolled off) before the answer.
        public var requestsCancelled = 0
        /// Started requests answered with a thumbnail.
        public var requestsCompleted = 0
        /// Started requests answered with an error (load, decode or over a limit).
        public var requestsFailed = 0
        /// Prefetches started near the viewport (requests not already in memory or under way as prefetches).
        public var prefetchesStarted = 0
        /// Prefetches cancelled before their answer, when the viewport moved away.
        public var prefetchesCancelled = 0
        /// Automatic retries after a connection error, 408, 429 or 5xx.
        public var retries = 0
        /// Joins of work already under way: a request joining an equal request's render, or a render joining a
        /// download of its URL.
        public var coalesced = 0
        /// Answers from a memory cache: a rendered thumbnail, a decoded bitmap or downloaded bytes.
        public var memoryHits = 0
        /// Image bytes read from the disk cache instead of downloaded.
        public var diskHits = 0
        /// Disk cache entries that could not be used (corrupt) and were fetched again.
        public var diskEntriesDiscarded = 0
        /// Download attempts that took a slot (retries and preempted attempts started again count again).
        public var downloadsStarted = 0
        /// Downloads stopped because nobody wanted their image any more.
        public var downloadsCancelled = 0
        /// Downloads that had stalled, stopped to give their slot to a more urgent one or another row on screen.
        public var downloadsPreempted = 0
        /// Bytes received, whatever became of them.
        public var bytesDownloaded = 0
        /// Bytes received for downloads that were then cancelled or preempted: traffic wasted.
        public var bytesDiscarded = 0
        /// The most downloads ever under way at once.
        public var maxDownloadsInFlight = 0
        /// Decodes asked for (counted before waiting for decode memory), including those that then failed.
        public var decodes = 0
        /// Decodes that drew the picture from the smaller copy its file carries (an EXIF thumbnail, a HEIF thumbnail
        /// item), which had the pixels wanted, instead of the full image.
        public var embeddedThumbnails = 0
        /// Grids rendered and put in the memory cache.
        public var renders = 0
        /// Conditional requests sent for stale disk cache entries (each attempt counts).
        public var revalidated = 0
        /// Conditional requests the server answered 304: the stored bytes were used, not downloaded again.
        public var notModified = 0
        /// Requests answered at once with a failure remembered from earlier in the run (a 404, an image that does
        /// not decode), without a new request.
        public var failuresRemembered = 0
        /// Times memory pressure made the pipeline drop memory caches.
        public var memoryPurges = 0

        public init() {}
    }

    private let state = Mutex(Snapshot())
    private let inFlight = Mutex(0)

    public init() {}

    public var snapshot: Snapshot { state.withLock { $0 } }

    func add(_ field: WritableKeyPath<Snapshot, Int>, _ amount: Int = 1) {
        state.withLock { $0[keyPath: field] += amount }
    }

    func downloadStarted() {
        let now = inFlight.withLock { n in
            n += 1
            return n
        }
        state.withLock { s in
            s.downloadsStarted += 1
            s.maxDownloadsInFlight = max(s.maxDownloadsInFlight, now)
        }
    }

    func downloadEnded() {
        inFlight.withLock { $0 -= 1 }
    }

    /// Downloads under way now.
    public var downloadsInFlight: Int { inFlight.withLock { $0 } }
}

extension PipelineCounters.Snapshot {
    /// The counts by their snake_case names, in a stable order: for `--stats-file` and the overlay.
    public var named: [(name: String, value: Int)] {
        [
            ("requests_started", requestsStarted), ("requests_cancelled", requestsCancelled),
            ("requests_completed", requestsCompleted), ("requests_failed", requestsFailed),
            ("prefetches_started", prefetchesStarted), ("prefetches_cancelled", prefetchesCancelled),
            ("retries", retries), ("coalesced", coalesced), ("memory_hits", memoryHits), ("disk_hits", diskHits),
            ("disk_entries_discarded", diskEntriesDiscarded), ("downloads_started", downloadsStarted),
            ("downloads_cancelled", downloadsCancelled), ("downloads_preempted", downloadsPreempted),
            ("bytes_downloaded", bytesDownloaded),
            ("bytes_discarded", bytesDiscarded), ("max_downloads_in_flight", maxDownloadsInFlight),
            ("decodes", decodes), ("embedded_thumbnails", embeddedThumbnails), ("renders", renders), ("revalidated", revalidated), ("not_modified", notModified),
            ("failures_remembered", failuresRemembered), ("memory_purges", memoryPurges),
        ]
    }
}

/// Bytes received by one download, so they can be counted as discarded if the download is cancelled.
final class ByteTally: Sendable {
    private let bytes = Mutex(0)
    func add(_ n: Int) { bytes.withLock { $0 += n } }
    /// Starts counting again, for the next attempt.
    func reset() { bytes.withLock { $0 = 0 } }
    var total: Int { bytes.withLock { $0 } }
}
