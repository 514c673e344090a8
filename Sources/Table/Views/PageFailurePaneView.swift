import Cells

/// Draws the failed page's pane: what failed, the whole reason wrapped and scrollable, and the rows that stay.
@MainActor
struct PageFailurePaneView: AreaView {
    let pane: PageFailurePane
    var theme: Theme
    /// The pane's text as the frame model laid it out for this size; nil: laid out when drawn.
    var text: ScrolledText?

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

    /// The pane's text and where it goes in a pane of the given size.
    func scrolledText(width: Int, height: Int) -> ScrolledText {
        let textWidth = max(1, width - 4)
        let top = height > 2 ? 1 : 0
        return ScrolledText(lines: textLines(width: textWidth), x: 2, y: top, width: textWidth, height: height - top)
    }

    /// Draws the pane into the list area, its text scrolled as the pane's `textScroll` says.
    func draw(into frame: inout CellBuffer, area: ScreenArea) {
        var buffer = CellBuffer(width: area.width, height: area.height)
        buffer.drawScrolled(text ?? scrolledText(width: area.width, height: area.height), scroll: pane.textScroll,
                            theme: theme)
        frame.draw(buffer, x: area.x, y: area.y)
    }
}
