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
    private let line: TurnQueue

    /// The budget of the program's thumbnail decodes, as large as one decode may be by default: a decode that fits
    /// `DecodeOptions.defaultMaxMemory` always gets its turn.
    public static let shared = DecodeMemoryBudget(capacity: DecodeOptions.defaultMaxMemory)

    public init(capacity: Int) {
        self.capacity = max(0, capacity)
        line = TurnQueue(capacity: max(0, capacity))
    }

    /// The bytes no reservation holds now.
    public var available: Int { line.available }

    /// The reservations waiting now.
    var waitingCount: Int { line.waitingCount }

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
        try await line.take(bytes)
    }

    /// Gives back `bytes` taken by `reserve`, and lets in the waiting reservations that now fit, in order.
    public func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        line.give(back: bytes)
    }
}
