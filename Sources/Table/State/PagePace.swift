import Basics

/// How fast the table asks for pages on its own: at most `perSecond` a second, after a first `burst` at once.
///
/// The table asks for a page whenever the screen comes within a screen of the last row, and a page that brings no
/// rows (or few, while G follows the end) leaves it there: without a pace, a source of empty pages or an endless
/// list would be asked hundreds of times a second for as long as it answers. A person paging through a list asks
/// far less often than the pace allows, and a list of ordinary pages (the demo's 80 of 25 rows) is never held back:
/// each of its pages takes longer than a turn.
struct PagePace {
    /// Pages asked for at once before the pace applies.
    static let burst = 10.0
    /// Pages a second once the burst is spent.
    static let perSecond = 10.0

    private var turns = PagePace.burst
    private var lastTurn: ContinuousClock.Instant?

    /// Takes a turn to ask for a page at `now`: nil when one may be asked for now, else the instant it may.
    mutating func take(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        if let lastTurn {
            turns = min(Self.burst, turns + (now - lastTurn).inSeconds * Self.perSecond)
        }
        lastTurn = now
        turns -= 1
        guard turns < 0 else { return nil }
        return now + .seconds(-turns / Self.perSecond)
    }
}
