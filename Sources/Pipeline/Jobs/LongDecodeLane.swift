import Codecs

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
    /// One place a running long decode.
    private let places: TurnQueue

    /// The program's lane: one long decode at a time, long meaning 64 million pixels visited or more (a 64-megapixel
    /// PNG, a 48-megapixel baseline JPEG, a 12-megapixel progressive one: a few tenths of a second and up here). A
    /// 12-megapixel baseline photo (18 million) is short: pages of them still decode two at a time.
    public static let shared = LongDecodeLane(threshold: 64_000_000, width: 1)

    public init(threshold: Int, width: Int) {
        self.threshold = threshold
        self.width = max(1, width)
        places = TurnQueue(capacity: max(1, width))
    }

    /// Runs `body` once the lane lets a decode of `work` in, and lets the next one in however `body` ends.
    /// - Throws: `CancellationError` when the task is cancelled while it waits, or what `body` throws.
    public func run<T>(work: Int, _ body: () async throws -> T) async throws -> T {
        guard work >= threshold else { return try await body() }
        try await places.take(1)
        defer { places.give(back: 1) }
        return try await body()
    }

    /// Long decodes running now, and waiting.
    var counts: (running: Int, waiting: Int) {
        let counts = places.counts
        return (width - counts.available, counts.waiting)
    }
}
