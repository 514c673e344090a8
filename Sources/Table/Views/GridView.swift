import Cells
import Items

/// Draws the list area as a grid: each item on screen as its picture with the title under it, the selected one
/// marked, and the status row on a line of its own at the end.
@MainActor
struct GridView {
    var list: ListState
    var grid: GridLayout
    /// The rows on screen, each with its cell's column and line.
    var placed: [(row: Int, x: Int, y: Int)]
    var selection: Int
    var pool: SlotPool
    var theme: Theme
    var tick: Int
    /// Whether each cell shows the slot drawing it at its top right (while the reuse overlay is on).
    var showsSlots = false
    /// The items marked to be picked together, by index in `list.items`.
    var marks: Set<Int> = []

    func draw(width: Int, height: Int) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        StatusRowView(list: list, theme: theme, tick: tick).drawNoMatches(into: &buffer)
        for (row, x, y) in placed {
            if let index = list.itemIndex(forRow: row) {
                drawCell(index, x: x, y: y, selected: row == selection, into: &buffer)
            } else {
                StatusRowView(list: list, theme: theme, tick: tick).draw(at: y, selected: row == selection,
                                                                        into: &buffer)
            }
        }
        return buffer
    }

    /// One cell: a column for the selection marker, the picture, and the caption under it.
    private func drawCell(_ index: Int, x: Int, y: Int, selected: Bool, into buffer: inout CellBuffer) {
        let box = grid.picture
        ThumbnailView(state: pool.slot(forItem: index)?.thumbnail ?? .loading, theme: theme, tick: tick)
            .draw(box: box, x: x + 1, y: y, into: &buffer)
        let title = list.items[index].title
        let marked = marks.contains(index) ? ListView.mark + " " : ""
        let caption = TextWrap.truncate(marked + (title.isEmpty ? "(untitled)" : title), width: box.columns)
        let style = selected ? theme.title.merging(theme.selection) : theme.subtitle
        if selected {
            buffer.fill(x: x + 1, y: y + box.rows, width: box.columns, height: 1, with: Cell(" ", style: style))
            for line in 0...box.rows {
                buffer.put(TerminalText.unicodeAvailable ? "▌" : ">", x: x, y: y + line, style: theme.selectionMarker)
            }
        }
        buffer.put(caption, x: x + 1, y: y + box.rows, style: style, maxWidth: box.columns)
        // At the picture's top right, not by the caption: the overlay's panel covers the bottom of the screen.
        if showsSlots, let slot = pool.slot(forItem: index) {
            let tag = ReuseOverlayView.tag(slot)
            buffer.put(tag, x: x + 1 + max(0, box.columns - tag.displayWidth), y: y,
                       style: ReuseOverlayView.tagStyle(theme), maxWidth: box.columns)
        }
    }
}
