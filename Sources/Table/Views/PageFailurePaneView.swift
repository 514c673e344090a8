import Cells

/// Draws the failed page's pane: what failed, the whole reason wrapped and scrollable, and the rows that stay.
@MainActor
struct PageFailurePaneView {
    let pane: PageFailurePane
    var theme: Theme

    /// The text of the pane, wrapped to `width`.
    func textLines(width: Int) -> [(String, CellStyle.Role)] {
        var lines: [(String, CellStyle.Role)] = []
        let heading = (TerminalText.unicodeAvailable ? "⚠ " : "! ") + PageFailurePane.heading(firstPage: pane.firstPage)
        for line in TextWrap.lines(heading, width: width) { lines.append((line, .error)) }
        lines.append(("", .plain))
        for line in TextWrap.lines(pane.reason, width: width) { lines.append((line, .plain)) }
        let loadedRows = pane.loadedRows
        if loadedRows > 0 {
            lines.append(("", .plain))
            let rows = "\(loadedRows) row\(loadedRows == 1 ? "" : "s") loaded before it stay in the list."
            for line in TextWrap.lines(rows, width: width) { lines.append((line, .subtitle)) }
        }
        return lines
    }

    /// Draws the pane into a buffer of the given size, and records in the pane's `textScroll` how much of the text
    /// shows (see `TextScroll.fit`).
    func draw(width: Int, height: Int) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        let textWidth = max(1, width - 4)
        let lines = textLines(width: textWidth)
        let top = height > 2 ? 1 : 0
        buffer.drawScrolled(lines, x: 2, y: top, width: textWidth, height: height - top, scroll: &pane.textScroll,
                            theme: theme)
        return buffer
    }
}
