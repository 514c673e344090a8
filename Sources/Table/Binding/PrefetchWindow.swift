import Basics

/// Which rows to warm around the screen: a prefetch must pay for itself.
///
/// At rest (or at the end of the rows), the next screen in the last scroll direction and the previous one. While the scroll moves, only rows
/// ahead, and only those whose picture, fetched now, would land while the row still has `dwell` left on screen: so
/// rows flying past faster than that (a held PgDn) are not fetched at all, and rows coming at a readable pace are
/// fetched as far ahead as the scroll travels in one fetch's time. A row already being warmed stays wanted while it
/// is still ahead or on screen; what the scroll has flown past is dropped (and its prefetch cancelled).
struct PrefetchWindow {
    /// The least time a picture must show on screen, once it lands, for fetching it ahead to be worth its bytes.
    static let dwell: Duration = .milliseconds(100)

    /// Whether rows pass faster than they can be seen: each is on screen for less than `dwell`. The loads of rows
    /// flown past at such a pace are cancelled rather than left to finish.
    static func isFlying(rowsOnScreen: Int, rowsPerSecond: Double) -> Bool {
        rowsPerSecond > 0 && Double(max(1, rowsOnScreen)) / rowsPerSecond < dwell.inSeconds
    }

    /// The rows on screen.
    var visible: Range<Int>
    /// All the rows there are.
    var rowCount: Int
    var movingUp: Bool
    /// The scroll's speed in rows a second; 0 at rest.
    var rowsPerSecond: Double
    /// How long a fetch takes to land; nil when not known yet (taken as no time, so only `dwell` decides).
    var latency: Duration?

    /// The rows to warm, nearest first: those on screen (so a prefetch under way for one is joined, not cancelled),
    /// then ahead, then (at rest) behind. `warming` are the rows of the last set: those still ahead stay.
    func rows(warming: Set<Int> = []) -> [Int] {
        let n = max(1, visible.count)
        let start = min(visible.lowerBound, rowCount), end = min(visible.upperBound, rowCount)
        /// How far beyond the screen a row is in the scroll direction (0: the first one off it); nil if not ahead.
        func distance(_ row: Int) -> Int? {
            let d = movingUp ? start - 1 - row : row - end
            return d >= 0 ? d : nil
        }
        /// The row `d` rows beyond the screen in the scroll direction (or against it), if there is one.
        func row(_ d: Int, ahead: Bool) -> Int? {
            let row = ahead != movingUp ? end + d : start - 1 - d
            return (0..<rowCount).contains(row) ? row : nil
        }
        // At the end of the rows in the scroll direction, the scroll can only come back: that is rest too.
        let atRest = rowsPerSecond <= 0 || row(0, ahead: true) == nil
        let speed = rowsPerSecond, lands = (latency ?? .zero).inSeconds, dwell = Self.dwell.inSeconds
        // Row d comes on screen after d/speed and leaves after (d + n)/speed.
        func pays(_ d: Int) -> Bool {
            atRest || Double(d + n) / speed - max(Double(d) / speed, lands) >= dwell
        }
        let reach = atRest ? n : n + Int((speed * lands).rounded(.up))
        let new = (0..<reach).filter(pays)
        let kept = warming.compactMap(distance)
        let ahead = Set(new + kept).sorted().compactMap { row($0, ahead: true) }
        let behind = atRest ? (0..<n).compactMap { row($0, ahead: false) } : []
        return Array(start..<end) + ahead + behind
    }
}
