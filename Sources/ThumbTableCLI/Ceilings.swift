import ArgumentParser

/// The largest value each number option takes, and the check that says so.
///
/// Every size a user gives turns into memory, time or connections: `render --size 100000x100000` once asked for a
/// 160 GB allocation and was killed by it. Each ceiling is far above any useful value and low enough that the
/// program stays small at it; the options' help and the README name them.
enum Ceiling {
    /// `render --size`, `--cols`, `--rows`: a 1000x1000 box renders in well under 100 MB.
    static let renderBox = CellBox(columns: 1000, rows: 1000)
    /// `--thumb-size`: a thumbnail wider or taller than any screen is never seen whole.
    static let thumbnail = CellBox(columns: 200, rows: 100)
    /// `--print-size`: as large as `render`'s box; a screen of rows of thumbnails that size prints in well under 100 MB.
    static let printScreen = CellBox(columns: 1000, rows: 1000)
    /// Items a page asked for with `--limit`.
    static let pageItems = 1000
    static let memoryCacheMB = 4096
    static let diskCacheMB = 100_000
    static let downloads = 64
    static let imageMB = 256
    /// Seconds for `--timeout` (an hour), also what keeps the seconds-to-milliseconds conversion from overflowing.
    static let timeoutSeconds = 3600.0
    /// `--cell-aspect`: a cell from ten times as tall as wide to ten times as wide as tall.
    static let cellAspect = 0.1...10.0
    /// Milliseconds for the demo server's `--latency`, `--jitter` and `--page-delay` (a minute).
    static let demoDelayMS = 60_000
    /// The demo catalogue's `--rows` (the demo server numbers pictures up to a million).
    static let demoRows = 1_000_000

    /// Checks that `value`, given as `option`, lies in `range`; the message names the value, the range and the unit.
    /// (nan and infinity are in no range, so they get the same message.)
    static func check<Value: Comparable>(_ value: Value, _ option: String, in range: ClosedRange<Value>,
                                         unit: String = "", then advice: String = "") throws(ValidationError) {
        guard !range.contains(value) else { return }
        let unit = unit.isEmpty ? "" : " \(unit)"
        let advice = advice.isEmpty ? "" : "; \(advice)"
        throw ValidationError("\(option) \(value) is out of range: it takes \(range.lowerBound) to "
                              + "\(range.upperBound)\(unit)\(advice)")
    }
}
