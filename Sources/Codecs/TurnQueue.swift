import Synchronization

/// A capacity that tasks take shares of in turn: a share that does not fit waits, suspended (no thread is blocked),
/// in arrival order, so a large share is not overtaken forever by small ones. What `DecodeMemoryBudget` (bytes) and
/// `LongDecodeLane` (places) are made of.
///
/// A waiting task that is cancelled leaves the line at once with `CancellationError` and is never resumed again;
/// the ones behind it may fit now, and are let in.
public final class TurnQueue: Sendable {
    private let state: Mutex<State>

    private struct State {
        var available: Int
        var waiting: [Waiter] = []
        var nextID = 0
    }

    private struct Waiter {
        var id: Int
        var share: Int
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// A line in front of `capacity` units, all free.
    public init(capacity: Int) {
        state = Mutex(State(available: max(0, capacity)))
    }

    /// The units no share holds now.
    public var available: Int { state.withLock { $0.available } }

    /// The shares waiting now.
    public var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// The free units and the waiting shares, read together.
    public var counts: (available: Int, waiting: Int) { state.withLock { ($0.available, $0.waiting.count) } }

    /// Takes `share` units, waiting until the shares that came before have been served and enough is free. A share
    /// larger than the capacity would wait for ever: the caller refuses it first.
    /// - Throws: `CancellationError` when the task is cancelled before its share is taken.
    public func take(_ share: Int) async throws {
        let id = state.withLock { s in
            defer { s.nextID += 1 }
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { s in
                    // Checked under the lock that the cancellation handler takes: either it finds this waiter in the
                    // line, or the flag it follows is already set here.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if s.waiting.isEmpty, s.available >= share {
                        s.available -= share
                        return .success(())
                    }
                    s.waiting.append(Waiter(id: id, share: share, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { s in
                s.waiting.firstIndex { $0.id == id }.map { s.waiting.remove(at: $0) }
            }
            waiter?.continuation.resume(throwing: CancellationError())
            // The head of the line may have left: whoever was behind it may fit now.
            if waiter != nil { letIn() }
        }
    }

    /// Gives back `share` units taken by `take`, and lets in the waiting shares that now fit, in order.
    public func give(back share: Int) {
        state.withLock { $0.available += share }
        letIn()
    }

    private func letIn() {
        let ready = state.withLock { s -> [Waiter] in
            var ready: [Waiter] = []
            while let first = s.waiting.first, first.share <= s.available {
                s.available -= first.share
                ready.append(s.waiting.removeFirst())
            }
            return ready
        }
        // Resumed outside the lock: a resumed task may take or give back at once.
        for waiter in ready { waiter.continuation.resume() }
    }
}
