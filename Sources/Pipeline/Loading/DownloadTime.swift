import Basics
import Synchronization

/// How long a download typically takes, from taking its slot to its last byte: a moving average of the downloads
/// that succeeded, each weighing a fifth. The table asks it whether a prefetch can land before the rows get there.
final class DownloadTime: Sendable {
    /// The share of the newest download in the average.
    static let weight = 0.2
    private let seconds = Mutex<Double?>(nil)

    func add(_ duration: Duration) {
        let new = max(0, duration.inSeconds)
        seconds.withLock { $0 = $0.map { $0 + Self.weight * (new - $0) } ?? new }
    }

    /// The average so far; nil before the first download ends.
    var typical: Duration? {
        seconds.withLock { $0 }.map { .seconds($0) }
    }
}
