import Foundation
import Synchronization

/// What the pipeline did, counted as it happens; read live by the overlay and written by `--stats-file`.
public final class PipelineCounters: Sendable {
    /// A copy of the counts at one moment.
    public struct Snapshot: Sendable, Equatable, Codable {
        /// Thumbnail requests that were not answered from the memory cache at once.
        public var requestsStarted = 0
        /// Requests whose caller went away (a slot reused) before the answer.
        public var requestsCancelled = 0
        public var requestsCompleted = 0
        public var requestsFailed = 0
        /// Prefetches started near the viewport, and those cancelled when the viewport moved away.
        public var prefetchesStarted = 0
        public var prefetchesCancelled = 0
        /// Automatic retries after a connection error, 408, 429 or 5xx.
        public var retries = 0
        /// Requests that joined work already under way instead of starting their own.
        public var coalesced = 0
        /// Answers from memory: a rendered thumbnail, a decoded bitmap or downloaded bytes.
        public var memoryHits = 0
        public var diskHits = 0
        /// Disk cache entries that could not be used (corrupt) and were fetched again.
        public var diskEntriesDiscarded = 0
        public var downloadsStarted = 0
        public var downloadsCancelled = 0
        /// Downloads that had stalled, stopped to give their slot to a more urgent one or another row on screen.
        public var downloadsPreempted = 0
        public var bytesDownloaded = 0
        /// Bytes received for downloads that were then cancelled: traffic wasted on rows scrolled away.
        public var bytesDiscarded = 0
        /// The most downloads ever under way at once.
        public var maxDownloadsInFlight = 0
        public var decodes = 0
        public var renders = 0

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
            ("decodes", decodes), ("renders", renders),
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
