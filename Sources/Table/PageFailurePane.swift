import Cells

/// The pane opened with Enter on the row of a page that failed: the whole reason, wrapped and scrollable, where the
/// row itself has room for one line of it.
@MainActor
public final class PageFailurePane {
    /// The reason, as `TableController.failureReason` words it.
    public let reason: String
    /// Whether no row had loaded when the page failed (the first page).
    public let firstPage: Bool
    /// Rows loaded before the failure, which stay.
    public let loadedRows: Int
    public private(set) var textScroll = TextScroll()

    init(reason: String, firstPage: Bool, loadedRows: Int) {
        self.reason = reason
        self.firstPage = firstPage
        self.loadedRows = loadedRows
    }

    /// Scrolls the text by `lines` (negative: up), within its length.
    public func scroll(by lines: Int) {
        textScroll.scroll(by: lines)
    }

    /// The text of the pane, wrapped to `width`.
    func textLines(width: Int) -> [(String, CellStyle.Role)] {
        var lines: [(String, CellStyle.Role)] = []
        let heading = (TerminalText.unicodeAvailable ? "⚠ " : "! ") + TableController.failureHeading(firstPage: firstPage)
        for line in TextWrap.lines(heading, width: width) { lines.append((line, .error)) }
        lines.append(("", .plain))
        for line in TextWrap.lines(reason, width: width) { lines.append((line, .plain)) }
        if loadedRows > 0 {
            lines.append(("", .plain))
            let rows = "\(loadedRows) row\(loadedRows == 1 ? "" : "s") loaded before it stay in the list."
            for line in TextWrap.lines(rows, width: width) { lines.append((line, .subtitle)) }
        }
        return lines
    }

    /// Composes the pane into a buffer of the given size.
    func compose(width: Int, height: Int, theme: Theme) -> CellBuffer {
        var pane = CellBuffer(width: width, height: height)
        let textWidth = max(1, width - 4)
        let lines = textLines(width: textWidth)
        let top = height > 2 ? 1 : 0
        pane.drawScrolled(lines, x: 2, y: top, width: textWidth, height: height - top, scroll: &textScroll, theme: theme)
        return pane
    }
}
