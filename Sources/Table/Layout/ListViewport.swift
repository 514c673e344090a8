/// Selection and scroll position over rows of different heights.
///
/// The viewport is anchored at its top row, which is always shown from its first line; rows below it are clipped at
/// the bottom. Every operation asks for the heights of the rows it walks over and no others, so its cost is bounded
/// by the rows on a screen, not the rows in the list.
public struct ListViewport: Sendable, Equatable {
    /// The selected row (a display index).
    public var selection = 0
    /// The row shown at the top.
    public var top = 0

    public init(selection: Int = 0, top: Int = 0) {
        self.selection = selection
        self.top = top
    }

    /// The rows that appear, from the top, on a screen `height` lines tall.
    public func visibleRows(count: Int, height: Int, rowHeight: (Int) -> Int) -> Range<Int> {
        guard count > 0, height > 0 else { return top..<top }
        var y = 0
        var row = top
        while row < count && y < height {
            y += rowHeight(row)
            row += 1
        }
        return top..<row
    }

    /// The number of rows fully shown from the top (at least 1).
    public func fullyVisibleCount(count: Int, height: Int, rowHeight: (Int) -> Int) -> Int {
        var y = 0
        var n = 0
        var row = top
        while row < count {
            y += rowHeight(row)
            if y > height { break }
            n += 1
            row += 1
        }
        return max(1, n)
    }

    /// The largest top row that still fills the screen down to the last row.
    public static func maxTop(count: Int, height: Int, rowHeight: (Int) -> Int) -> Int {
        guard count > 0 else { return 0 }
        var y = 0
        var row = count - 1
        while row >= 0 {
            y += rowHeight(row)
            if y > height { return min(count - 1, row + 1) }
            row -= 1
        }
        return 0
    }

    /// Moves the top so the selected row is on screen in full (or from its first line if it is taller), and no
    /// higher than needed to fill the screen down to the last row: when the screen grows (a bigger window, the
    /// overlay's panel hidden) rows hidden above come back instead of blank lines below the end.
    public mutating func reveal(count: Int, height: Int, rowHeight: (Int) -> Int) {
        clamp(count: count)
        top = min(top, Self.maxTop(count: count, height: height, rowHeight: rowHeight))
        if selection < top {
            top = selection
            return
        }
        var used = 0
        for row in top...selection { used += rowHeight(row) }
        while used > height && top < selection {
            used -= rowHeight(top)
            top += 1
        }
    }

    /// Moves the selection by `delta` rows and reveals it.
    public mutating func move(by delta: Int, count: Int, height: Int, rowHeight: (Int) -> Int) {
        guard count > 0 else { return }
        selection = min(max(0, selection + delta), count - 1)
        reveal(count: count, height: height, rowHeight: rowHeight)
    }

    /// Scrolls by a fraction of a screen (1: PgDn, -0.5: Ctrl-U), the selection moving with the page, like `less`.
    public mutating func page(by fraction: Double, count: Int, height: Int, rowHeight: (Int) -> Int) {
        guard count > 0 else { return }
        let perScreen = fullyVisibleCount(count: count, height: height, rowHeight: rowHeight)
        let step = max(1, Int((Double(perScreen) * abs(fraction)).rounded(.down)))
        let delta = fraction < 0 ? -step : step
        let maxTop = Self.maxTop(count: count, height: height, rowHeight: rowHeight)
        top = min(max(0, top + delta), maxTop)
        selection = min(max(0, selection + delta), count - 1)
        reveal(count: count, height: height, rowHeight: rowHeight)
    }

    /// Scrolls the view by `delta` rows (mouse wheel), keeping the selection on screen.
    public mutating func scroll(by delta: Int, count: Int, height: Int, rowHeight: (Int) -> Int) {
        guard count > 0 else { return }
        let maxTop = Self.maxTop(count: count, height: height, rowHeight: rowHeight)
        top = min(max(0, top + delta), maxTop)
        let fully = fullyVisibleCount(count: count, height: height, rowHeight: rowHeight)
        selection = min(max(selection, top), min(count - 1, top + fully - 1))
    }

    /// Selects the first row.
    public mutating func home() {
        selection = 0
        top = 0
    }

    /// Selects the last row, showing as many rows above it as fit.
    public mutating func end(count: Int, height: Int, rowHeight: (Int) -> Int) {
        guard count > 0 else { return home() }
        selection = count - 1
        top = Self.maxTop(count: count, height: height, rowHeight: rowHeight)
    }

    /// The row at a line of the screen (a click), or nil below the last row.
    public func row(atLine line: Int, count: Int, rowHeight: (Int) -> Int) -> Int? {
        guard line >= 0 else { return nil }
        var y = 0
        var row = top
        while row < count {
            y += rowHeight(row)
            if line < y { return row }
            row += 1
        }
        return nil
    }

    /// Keeps the selection and top inside a list of `count` rows.
    public mutating func clamp(count: Int) {
        selection = count == 0 ? 0 : min(max(0, selection), count - 1)
        top = count == 0 ? 0 : min(max(0, top), selection)
    }
}
