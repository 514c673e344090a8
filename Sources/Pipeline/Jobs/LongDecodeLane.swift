import Synchronization

/// Where long decodes take turns: a decode whose work (`ImageDecoder.decodeWork`) reaches `threshold` runs only when
/// fewer than `width` other long ones are running, and waits, suspended, in arrival order until then. Short decodes
/// never wait.
///
/// Why: each decode holds a thread of the cooperative pool (two on a two-core machine) for as long as it takes.
/// Eight one-second decodes side by side would hold every thread for four seconds, and the rows on screen beside
/// them, short decodes, would stay spinners. One lane keeps a thread for everything else; a long decode whose row is
/// gone before its turn never starts, and one whose row goes while it runs stops part way (`DecodeError.cancelled`).
public final class LongDecodeLane: Sendable {
    /// The work from which a decode counts as long.
    public let threshold: Int
    /// How many long decodes may run at once.
    public let width: Int
    private let state: Mutex<State>

    private struct State {
        var running = 0
        var waiting: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID = 0
    }

    /// The program's lane: one long decode at a time, long meaning 64 million pixels visited or more (a 64-megapixel
    /// PNG, a 48-megapixel baseline JPEG, a 12-megapixel progressive one: a few tenths of a second and up here). A
    /// 12-megapixel baseline photo (18 million) is short: pages of them still decode two at a time.
    public static let shared = LongDecodeLane(threshold: 64_000_000, width: 1)

    public init(threshold: Int, width: Int) {
        self.threshold = threshold
        self.width = max(1, width)
        state = Mutex(State())
    }

    /// Runs `body` once the lane lets a decode of `work` in, and lets the next one in however `body` ends.
    /// - Throws: `CancellationError` when the task is cancelled while it waits, or what `body` throws.
    public func run<T>(work: Int, _ body: () async throws -> T) async throws -> T {
        guard work >= threshold else { return try await body() }
        try await enter()
        defer { leave() }
        return try await body()
    }

    /// Long decodes running now, and waiting.
    var counts: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.waiting.count) } }

    private func enter() async throws {
        let id = state.withLock { s in
            defer { s.nextID += 1 }
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { s in
                    // Checked under the lock the cancellation handler takes: it finds this waiter, or the flag is set.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if s.waiting.isEmpty, s.running < width {
                        s.running += 1
                        return .success(())
                    }
                    s.waiting.append((id: id, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { s in
                s.waiting.firstIndex { $0.id == id }.map { s.waiting.remove(at: $0) }
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    private func leave() {
        let next = state.withLock { s -> CheckedContinuation<Void, any Error>? in
            guard !s.waiting.isEmpty else {
                s.running -= 1
                return nil
            }
            // The place passes straight to the next waiter: `running` stays as it is.
            return s.waiting.removeFirst().continuation
        }
        next?.resume()
    }
}
