import Synchronization

/// A clock a test moves by hand, for what measures time (the scroll's pace): `read` is what the code under test
/// calls, and it answers the same instant until `advance` moves it, or moves `step` on at each reading (a table
/// whose every key comes a second after the last, whatever the test's own speed).
public final class ManualClock: Sendable {
    private let instant = Mutex(ContinuousClock.now)
    private let step: Duration

    public init(step: Duration = .zero) {
        self.step = step
    }

    public var now: ContinuousClock.Instant { instant.withLock { $0 } }

    public func advance(by duration: Duration) {
        instant.withLock { $0 = $0 + duration }
    }

    /// The clock as a closure, for a configuration's `clock`.
    public var read: @Sendable () -> ContinuousClock.Instant {
        { self.instant.withLock { now in defer { now = now + self.step }; return now } }
    }

    /// `clock`'s reading, or the real clock's when there is none.
    public static func read(_ clock: ManualClock?) -> @Sendable () -> ContinuousClock.Instant {
        clock?.read ?? { @Sendable in ContinuousClock.now }
    }
}
