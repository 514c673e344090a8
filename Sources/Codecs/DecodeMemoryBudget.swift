import Synchronization

/// The memory that concurrent decodes share: each reserves what it will allocate (`ImageDecoder.memoryCost`) before
/// it starts and gives it back when it ends, so that together they never hold more than `capacity` bytes.
///
/// A reservation that does not fit waits, suspended (no thread is blocked), in arrival order, so a large decode is
/// not overtaken forever by small ones. One that alone exceeds the capacity is refused at once with
/// `DecodeError.needsTooMuchMemory`: waiting could never help it.
public final class DecodeMemoryBudget: Sendable {
    /// The bytes all reservations together may hold.
    public let capacity: Int
    private let state: Mutex<State>

    private struct State {
        var available: Int
        var waiting: [Waiter] = []
        var nextID = 0
    }

    private struct Waiter {
        var id: Int
        var bytes: Int
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// The budget of the program's thumbnail decodes, as large as one decode may be by default: a decode that fits
    /// `DecodeOptions.defaultMaxMemory` always gets its turn.
    public static let shared = DecodeMemoryBudget(capacity: DecodeOptions.defaultMaxMemory)

    public init(capacity: Int) {
        self.capacity = max(0, capacity)
        state = Mutex(State(available: max(0, capacity)))
    }

    /// The bytes no reservation holds now.
    public var available: Int { state.withLock { $0.available } }

    /// The reservations waiting now.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Reserves `bytes`, runs `body` (synchronously, on the caller's executor), and releases them however `body`
    /// ends.
    /// - Throws: `DecodeError.needsTooMuchMemory` when `bytes` exceed the capacity, `CancellationError` when the
    ///   task is cancelled while it waits, or what `body` throws.
    public func withReservation<T>(of bytes: Int, _ body: () throws -> T) async throws -> T {
        try await reserve(bytes)
        defer { release(bytes) }
        return try body()
    }

    /// Takes `bytes` from the budget, waiting until earlier reservations have been served and enough is free.
    public func reserve(_ bytes: Int) async throws {
        guard bytes > 0 else { return }
        guard bytes <= capacity else { throw DecodeError.needsTooMuchMemory(bytes: bytes, limit: capacity) }
        let id = state.withLock { s in
            defer { s.nextID += 1 }
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { s in
                    // Checked under the lock that the cancellation handler takes: either it finds this waiter in the
                    // queue, or the flag it follows is already set here.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if s.waiting.isEmpty, s.available >= bytes {
                        s.available -= bytes
                        return .success(())
                    }
                    s.waiting.append(Waiter(id: id, bytes: bytes, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { s -> Waiter? in
                guard let index = s.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return s.waiting.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
            // The head of the queue may have left: whoever was behind it may fit now.
            if waiter != nil { wakeWaiters() }
        }
    }

    /// Gives back `bytes` taken by `reserve`, and lets in the waiting reservations that now fit, in order.
    public func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        state.withLock { $0.available += bytes }
        wakeWaiters()
    }

    private func wakeWaiters() {
        let ready = state.withLock { s -> [Waiter] in
            var ready: [Waiter] = []
            while let first = s.waiting.first, first.bytes <= s.available {
                s.available -= first.bytes
                ready.append(s.waiting.removeFirst())
            }
            return ready
        }
        // Resumed outside the lock: a resumed task may reserve or release at once.
        for waiter in ready { waiter.continuation.resume() }
    }
}
