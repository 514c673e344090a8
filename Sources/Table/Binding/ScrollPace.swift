import Basics

/// How fast the rows on screen are moving: the first row on screen, recorded at each update, gives the rows passed
/// in the last `window` and the direction of the last move. No move within the window is rest.
///
/// One key press counts as slow (a row, or a screen, in a whole window); keys held down or repeated count at the
/// rate they come, from the second on.
struct ScrollPace {
    /// How far back moves count, and how long after the last move the scroll is at rest.
    static let window: Duration = .milliseconds(300)

    private var lastTop: Int?
    /// The moves within the window (older ones are dropped as new ones come): when, and how many rows.
    private var moves: [(at: ContinuousClock.Instant, rows: Int)] = []
    /// Whether the last move was towards the start of the list.
    private(set) var movingUp = false

    /// Records where the screen starts now.
    mutating func record(top: Int, at now: ContinuousClock.Instant) {
        defer { lastTop = top }
        guard let lastTop, top != lastTop else { return }
        movingUp = top < lastTop
        moves.removeAll { now - $0.at > Self.window }
        moves.append((now, abs(top - lastTop)))
    }

    /// Rows a second: with one move in the last window, its rows over the window; with more, the rows moved after
    /// the first over the time since it (so a held key is fast from its second repeat). 0 at rest.
    func rowsPerSecond(at now: ContinuousClock.Instant) -> Double {
        let recent = moves.filter { now - $0.at <= Self.window }
        guard let first = recent.first, let last = recent.last else { return 0 }
        guard recent.count > 1 else { return Double(first.rows) / Self.window.inSeconds }
        let rows = recent.dropFirst().reduce(0) { $0 + $1.rows }
        return Double(rows) / max((last.at - first.at).inSeconds, Self.shortestInterval.inSeconds)
    }

    /// Moves closer together than this (a wheel's burst of events) count as this far apart.
    static let shortestInterval: Duration = .milliseconds(16)

    /// When the scroll will be at rest if nothing moves meanwhile; nil if it is at rest already.
    func restsAt(after now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard let last = moves.last?.at, now - last <= Self.window else { return nil }
        return last + Self.window
    }
}

