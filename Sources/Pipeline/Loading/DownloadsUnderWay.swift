import FoundationEssentials
import Synchronization

/// Where a download stands: waiting for a download slot, or receiving bytes (so far, this attempt).
public enum DownloadProgress: Sendable, Equatable {
    case waiting
    case receiving(bytes: Int)
}

/// The downloads under way and how far each has got, readable from any thread without waiting for the pipeline
/// actor: the reuse overlay asks when a slot cancels its load, to say how many bytes the download had received.
final class DownloadsUnderWay: Sendable {
    /// Each URL's download: nil while it waits for a slot, else the tally of its attempt.
    private let downloads = Mutex<[URL: ByteTally?]>([:])

    /// The download of `url` waits for a slot (it started, or its attempt was preempted or failed and it retries).
    func waiting(_ url: URL) {
        downloads.withLock { $0[url] = .some(nil) }
    }

    /// The download of `url` took a slot; `tally` counts its attempt's bytes.
    func receiving(_ url: URL, _ tally: ByteTally) {
        downloads.withLock { $0[url] = .some(tally) }
    }

    func ended(_ url: URL) {
        downloads.withLock { $0[url] = nil }
    }

    func progress(of url: URL) -> DownloadProgress? {
        downloads.withLock { $0[url] }.map { tally in tally.map { .receiving(bytes: $0.total) } ?? .waiting }
    }
}
