import Cells
import Items

/// Draws the list area: the rows on screen, each with its thumbnail block and text, and the status row at the end.
@MainActor
struct ListView {
    var list: ListState
    var layout: RowLayout
    /// The rows on screen and the line each starts on.
    var placed: [(row: Int, y: Int)]
    var selection: Int
    var pool: SlotPool
    var theme: Theme
    var tick: Int

    func draw(width: Int, height: Int) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        if list.itemCount == 0 && !list.filter.isEmpty {
            buffer.put("No titles match \"\(list.filter)\". Esc clears the filter.", x: 2, y: 1,
                       style: theme.subtitle, maxWidth: width - 3)
        }
        for (row, y) in placed {
            if let index = list.itemIndex(forRow: row) {
                drawItemRow(index, at: y, selected: row == selection, into: &buffer)
            } else {
                drawStatusRow(at: y, selected: row == selection, into: &buffer)
            }
        }
        return buffer
    }

    private func drawItemRow(_ index: Int, at y: Int, selected: Bool, into buffer: inout CellBuffer) {
        let item = list.items[index]
        let text = layout.textLines(for: item)
        let contentHeight = max(layout.thumbnail?.rows ?? 0, text.lineCount)
        if selected {
            buffer.restyle(x: layout.textColumn - 1, y: y, width: buffer.width, height: contentHeight) {
                $0 = $0.merging(theme.selection)
            }
            for line in 0..<contentHeight {
                buffer.put(TerminalText.unicodeAvailable ? "▌" : ">", x: 0, y: y + line, style: theme.selectionMarker)
            }
        }
        if let box = layout.thumbnail {
            drawThumbnail(pool.slot(forItem: index)?.thumbnail ?? .loading, box: box, x: 2, y: y, into: &buffer)
        }
        let x = layout.textColumn
        var line = y
        let merge = { (style: CellStyle) in selected ? style.merging(theme.selection) : style }
        for title in text.title {
            buffer.put(title, x: x, y: line, style: merge(theme.title), maxWidth: layout.textWidth)
            line += 1
        }
        if let subtitle = text.subtitle {
            buffer.put(subtitle, x: x, y: line, style: merge(theme.subtitle), maxWidth: layout.textWidth)
            line += 1
        }
        if let attribution = text.attribution {
            buffer.put(attribution, x: x, y: line, style: merge(theme.attribution), maxWidth: layout.textWidth)
        }
    }

    /// Draws a thumbnail block: the picture centred in it, or a placeholder (spinner, failure glyph, no image).
    private func drawThumbnail(_ state: ThumbnailState, box: CellSize, x: Int, y: Int, into buffer: inout CellBuffer) {
        let unicode = TerminalText.unicodeAvailable
        switch state {
        case .loaded(let picture):
            buffer.draw(picture, x: x + (box.columns - picture.width) / 2, y: y + (box.rows - picture.height) / 2)
        case .loading:
            buffer.fill(x: x, y: y, width: box.columns, height: box.rows, with: Cell(" ", style: theme.placeholder))
            buffer.put(String(Spinner.frame(tick)), x: x + box.columns / 2, y: y + box.rows / 2,
                       style: theme.placeholder)
        case .failed:
            buffer.fill(x: x, y: y, width: box.columns, height: box.rows, with: Cell(" ", style: theme.placeholder))
            buffer.put(unicode ? "✗" : "x", x: x + box.columns / 2, y: y + box.rows / 2 - (box.rows > 2 ? 1 : 0),
                       style: theme.failure)
            if box.rows > 2 {
                let label = box.columns >= 8 ? "failed" : "!"
                buffer.put(label, x: x + (box.columns - label.count) / 2, y: y + box.rows / 2 + 1,
                           style: theme.placeholder)
            }
        case .none:
            buffer.fill(x: x, y: y, width: box.columns, height: box.rows, with: Cell(" ", style: theme.placeholder))
            let label = box.columns >= 10 ? "no image" : "-"
            buffer.put(label, x: x + (box.columns - label.count) / 2, y: y + box.rows / 2, style: theme.placeholder)
        }
    }

    private func drawStatusRow(at y: Int, selected: Bool, into buffer: inout CellBuffer) {
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
        case .more:
            break
        }
    }
}
