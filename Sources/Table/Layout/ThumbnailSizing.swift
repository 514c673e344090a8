import Cells
import FoundationEssentials

/// How big the list's thumbnails are: a size that follows the screen (or the one given with `--thumb-size`),
/// zoomed in steps by `+` and `-`, and kept within what the screen can show.
///
/// The rule, in one place:
/// - **Automatic:** about a quarter of the list's height in rows (5 on an 80x24 screen, as the fixed 12x5 of old;
///   9 at 120x40; 14 at 200x60), at most 24 rows, and at the shape of a 4:3 photo in cells of about 1:2, 2.4 columns
///   a row, at most two fifths of the width.
/// - **Zoom:** each step makes the rows about a quarter more (or fewer), at least one row; the shape stays.
/// - **Bounds:** at least three rows of the list fit the screen (a row is the thumbnail and a blank line), and the
///   text beside the thumbnail keeps `RowLayout.textRoom` columns. A size beyond that is shown at the largest that
///   fits, of the same shape, and says so. Zooming out stops at two rows. A screen too small for three rows of
///   two-row thumbnails (under 9 lines of list, or 25 columns) is not fitted: nothing sensible fits there.
public struct ThumbnailSizing: Sendable, Equatable {
    /// Where the size starts from before zooming.
    public enum Base: Sendable, Equatable {
        /// Follows the screen (`automatic(columns:listHeight:)`).
        case automatic
        /// A size given: kept whatever the screen, shrunk only to fit, until zoomed.
        case fixed(CellSize)
    }

    /// A bound a zoom step ran into.
    public enum Limit: Sendable, Equatable {
        /// A step bigger would leave fewer than three rows on screen (or no room for the text).
        case largest
        /// A step smaller would go below two rows.
        case smallest
    }

    /// Columns a thumbnail row: a 4:3 photo in cells about twice as tall as wide.
    public static let columnsPerRow = 2.4
    /// Rows of the list that must always fit the screen.
    public static let rowsThatFit = 3
    /// The thumbnails' rows that zooming out stops at.
    public static let smallestRows = 2
    /// The most rows the automatic size takes, however tall the screen.
    public static let largestAutomaticRows = 24

    public private(set) var base: Base
    /// Zoom steps from the base: +1 is one step bigger.
    public private(set) var steps = 0

    public init(_ base: Base) {
        self.base = base
    }

    /// The size on a screen `columns` wide whose list area is `listHeight` lines, and whether it was shrunk to fit
    /// (`wanted` is then the size asked for).
    public func size(columns: Int, listHeight: Int) -> (shown: CellSize, wanted: CellSize) {
        let wanted = wantedSize(columns: columns, listHeight: listHeight)
        return (Self.fitted(wanted, columns: columns, listHeight: listHeight), wanted)
    }

    /// Zooms by `delta` steps (negative: smaller), one step at a time, stopping at a bound. A size that did not fit
    /// is first taken as it is shown, so the first step smaller makes what the user sees smaller.
    /// - Returns: the bound it stopped at, or nil when every step was taken.
    public mutating func zoom(by delta: Int, columns: Int, listHeight: Int) -> Limit? {
        settle(columns: columns, listHeight: listHeight)
        for _ in 0..<delta.magnitude {
            var next = self
            next.steps += delta.signum()
            let now = wantedSize(columns: columns, listHeight: listHeight)
            let size = next.wantedSize(columns: columns, listHeight: listHeight)
            if delta > 0, !Self.fits(size, columns: columns, listHeight: listHeight) { return .largest }
            if delta < 0, now.rows <= Self.smallestRows { return .smallest }
            self = next
        }
        return nil
    }

    /// Makes the size asked for one that fits: a fixed size becomes the size shown; zoom steps the screen cannot
    /// show any more (it shrank) are given back.
    private mutating func settle(columns: Int, listHeight: Int) {
        let (shown, wanted) = size(columns: columns, listHeight: listHeight)
        guard shown != wanted else { return }
        if case .fixed = base {
            base = .fixed(shown)
            steps = 0
            return
        }
        while steps > 0, !Self.fits(wantedSize(columns: columns, listHeight: listHeight), columns: columns,
                                     listHeight: listHeight) {
            steps -= 1
        }
    }

    /// The base zoomed by `steps`, before it is fitted to the screen.
    private func wantedSize(columns: Int, listHeight: Int) -> CellSize {
        let start: CellSize
        switch base {
        case .automatic: start = Self.automatic(columns: columns, listHeight: listHeight)
        case .fixed(let size): start = size
        }
        return Self.zoomed(start, steps: steps)
    }

    // MARK: The rule

    /// The size that follows the screen: about a quarter of the list's height in rows, 2.4 columns a row, at most
    /// two fifths of the width, and never more than fits.
    public static func automatic(columns: Int, listHeight: Int) -> CellSize {
        var rows = min(max(smallestRows, Int((Double(listHeight) / 4).rounded())), largestAutomaticRows)
        let widest = Int(Double(columns) * 0.4)
        if shape(rows: rows).columns > widest { rows = Int(Double(widest) / columnsPerRow) }
        rows = max(1, min(rows, largestRows(listHeight: listHeight)))
        return shape(rows: rows)
    }

    /// `size` zoomed by `steps`, keeping its shape: `steps` 0 is `size` itself.
    public static func zoomed(_ size: CellSize, steps: Int) -> CellSize {
        guard steps != 0 else { return size }
        var rows = size.rows
        for _ in 0..<steps.magnitude {
            rows = steps > 0 ? max(rows + 1, Int((Double(rows) * 1.25).rounded()))
                : max(1, min(rows - 1, Int((Double(rows) / 1.25).rounded())))
        }
        let perRow = Double(size.columns) / Double(max(1, size.rows))
        return CellSize(columns: max(1, Int((Double(rows) * perRow).rounded())), rows: rows)
    }

    /// Whether `size` leaves three rows on screen and room for the text beside it.
    public static func fits(_ size: CellSize, columns: Int, listHeight: Int) -> Bool {
        size.rows <= largestRows(listHeight: listHeight) && size.columns <= largestColumns(columns: columns)
    }

    /// `size` if it fits, else the largest of its shape that does (at least 1x1). A screen too small for three rows
    /// of the smallest thumbnails beside their text is left alone: nothing sensible fits there, and a screen too
    /// narrow drops the thumbnails (`RowLayout`), as it always did.
    static func fitted(_ size: CellSize, columns: Int, listHeight: Int) -> CellSize {
        guard !fits(size, columns: columns, listHeight: listHeight),
              fits(shape(rows: smallestRows), columns: columns, listHeight: listHeight) else { return size }
        let rowsCap = largestRows(listHeight: listHeight), columnsCap = largestColumns(columns: columns)
        let scale = min(Double(rowsCap) / Double(size.rows), Double(columnsCap) / Double(size.columns))
        return CellSize(columns: max(1, min(columnsCap, Int((Double(size.columns) * scale).rounded()))),
                        rows: max(1, min(rowsCap, Int(Double(size.rows) * scale))))
    }

    /// The most thumbnail rows that leave `rowsThatFit` rows (each one line taller, for the gap) on screen.
    static func largestRows(listHeight: Int) -> Int {
        max(1, listHeight / rowsThatFit - 1)
    }

    /// The most thumbnail columns that leave the text its room.
    static func largestColumns(columns: Int) -> Int {
        max(1, columns - RowLayout.textRoom)
    }

    /// A photo-shaped thumbnail of this many rows.
    static func shape(rows: Int) -> CellSize {
        CellSize(columns: max(1, Int((Double(rows) * columnsPerRow).rounded())), rows: rows)
    }
}

extension ThumbnailSizing.Limit {
    /// What the status line says when a zoom step stopped here.
    public func note(at size: CellSize) -> String {
        switch self {
        case .largest: "thumbnails at their largest (\(size)): \(ThumbnailSizing.rowsThatFit) rows must fit the screen"
        case .smallest: "thumbnails at their smallest (\(size))"
        }
    }
}

extension ThumbnailSizing {
    /// What the status line says when the size asked for does not fit the screen, or nil when it does.
    public static func clampNote(wanted: CellSize, shown: CellSize, columns: Int, rows: Int) -> String? {
        guard wanted != shown else { return nil }
        return "thumbnails of \(wanted) do not fit a \(columns)x\(rows) screen with \(rowsThatFit) rows: "
            + "shown at \(shown)"
    }
}
