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
    /// Whether each row shows the slot drawing it at its right edge (while the reuse overlay is on).
    var showsSlots = false
    /// The items marked to be picked together, by index in `list.items`.
    var marks: Set<Int> = []

    /// What marks an item to be picked (`pick --multi`), in the column between the selection's bar and the picture.
    static var mark: String { TerminalText.unicodeAvailable ? "●" : "*" }

    func draw(width: Int, height: Int) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        StatusRowView(list: list, theme: theme, tick: tick).drawNoMatches(into: &buffer)
        for (row, y) in placed {
            if let index = list.itemIndex(forRow: row) {
                drawItemRow(index, at: y, selected: row == selection, into: &buffer)
            } else {
                StatusRowView(list: list, theme: theme, tick: tick).draw(at: y, selected: row == selection, into: &buffer)
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
            ThumbnailView(state: pool.slot(forItem: index)?.thumbnail ?? .loading, theme: theme, tick: tick)
                .draw(box: box, x: 2, y: y, into: &buffer)
        }
        if marks.contains(index) {
            for line in 0..<contentHeight { buffer.put(Self.mark, x: 1, y: y + line, style: theme.selectionMarker) }
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
        if showsSlots, let slot = pool.slot(forItem: index) {
            let tag = ReuseOverlayView.tag(slot)
            buffer.put(tag, x: buffer.width - tag.displayWidth, y: y, style: ReuseOverlayView.tagStyle(theme))
        }
    }
}
