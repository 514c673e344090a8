import Cells

/// Draws the row at the end of the list, in the list and the grid alike: loading more, why a page failed, or the
/// end of the list; and what stands in the rows' place when the filter matches none.
@MainActor
struct StatusRowView {
    var list: ListState
    var theme: Theme
    var tick: Int

    /// Says that no row matches the filter, when none does, and how many rows were read to find that out.
    func drawNoMatches(into buffer: inout CellBuffer) {
        guard list.itemCount == 0 && !list.filter.isEmpty else { return }
        let read = list.items.count
        let reading: String
        switch list.status {
        case .end: reading = "in all \(read) rows"
        case .more where list.isPausedByFilter: reading = "in \(read) rows read; reading stopped"
        case .stopped: reading = "in the \(read) rows read; paging stopped"
        default: reading = "in \(read) rows read so far"
        }
        buffer.put("No match for \"\(list.filter)\" \(reading). Esc clears the filter.", x: 2, y: 1,
                   style: theme.subtitle, maxWidth: buffer.width - 3)
    }

    func draw(at y: Int, selected: Bool, into buffer: inout CellBuffer) {
        let x = 2
        if selected {
            buffer.put(TerminalText.unicodeAvailable ? "▌" : ">", x: 0, y: y, style: theme.selectionMarker)
        }
        let width = buffer.width - x - 1
        let items = list.items
        switch list.status {
        case .loading:
            // Before the first rows there is nothing to load more of.
            buffer.put("\(Spinner.frame(tick)) \(items.isEmpty ? "loading…" : "loading more…")", x: x, y: y,
                       style: theme.subtitle, maxWidth: width)
        case .failed(let message, _):
            // One line of the reason; Enter shows it whole, and the status line says so and how to retry.
            let text = "\(TerminalText.unicodeAvailable ? "⚠" : "!") "
                + "\(PageFailurePane.heading(firstPage: items.isEmpty)): \(PageFailurePane.reason(message))"
            buffer.put(TextWrap.truncate(text, width: width), x: x, y: y, style: theme.error, maxWidth: width)
        case .end:
            let text = items.isEmpty ? "— \(list.pageNotes.last ?? "the list is empty") —"
                : "— end of the list: \(items.count) item\(items.count == 1 ? "" : "s") —"
            buffer.put(TextWrap.truncate(text, width: width), x: x, y: y, style: theme.attribution, maxWidth: width)
        case .stopped(let stop):
            let mark = TerminalText.unicodeAvailable ? (stop.resumeCursor == nil ? "■" : "⏸")
                : (stop.resumeCursor == nil ? "#" : "=")
            let text = "\(mark) \(items.count) item\(items.count == 1 ? "" : "s"): \(stop.note)"
                + (stop.resumeCursor == nil ? "" : " · r asks again")
            buffer.put(TextWrap.truncate(text, width: width), x: x, y: y, style: theme.attribution, maxWidth: width)
        case .more:
            // Only shown when the filter stopped the paging (`hasStatusRow`).
            let text = "\(TerminalText.unicodeAvailable ? "⏸" : "=") no match in the last \(list.readWithoutMatch) "
                + "rows (\(items.count) read) · Enter reads \(list.filterReadStep) more"
            buffer.put(TextWrap.truncate(text, width: width), x: x, y: y, style: theme.attribution, maxWidth: width)
        }
    }
}
