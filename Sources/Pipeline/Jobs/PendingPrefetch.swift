import Synchronization

/// The newest prefetch set handed over from another thread, not yet applied by the pipeline actor.
///
/// The table hands sets over from its own thread, each in a task of its own, and tasks may reach the actor in any
/// order. Each task applies whatever set is newest when it runs (and the later ones find nothing), so the last set
/// handed over always wins: simpler than numbering the sets, and no task lives on between hand-overs.
final class PendingPrefetch: Sendable {
    private let latest = Mutex<[ThumbnailRequest]?>(nil)

    func put(_ requests: [ThumbnailRequest]) { latest.withLock { $0 = requests } }

    func take() -> [ThumbnailRequest]? { latest.withLock { value in defer { value = nil }; return value } }
}
