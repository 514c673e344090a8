import Cells
import Items

/// Draws the list area as a grid: each item on screen as its picture with the title under it, the selected one
/// marked, and the status row on a line of its own at the end.
@MainActor
struct GridView: AreaView {
    var list: ListState
    var grid: GridLayout
    /// The rows on screen, each with its cell's column and line.
    var placed: [FrameModel.Placed]
    var selection: Int
    /// Draws each cell's picture, selection bar and slot tag (at its top right).
    var cell: ItemCellDrawer
    /// The items marked to be picked together, by index in `list.items`.
    var marks: Set<Int> = []

    /// The column a cell's picture box starts at within the cell: after the selection's bar.
    static let pictureColumn = 1

    private var theme: Theme { cell.theme }

    /// Draws the cells into the list area (clipped to it: the last line of cells may show in part).
    func draw(into frame: inout CellBuffer, area: ScreenArea) {
        var buffer = CellBuffer(width: area.width, height: area.height)
        StatusRowView(list: list, theme: theme, tick: cell.tick).drawNoMatches(into: &buffer)
        for place in placed {
            if let index = list.itemIndex(forRow: place.row) {
                drawCell(index, x: place.x, y: place.y, selected: place.row == selection, into: &buffer)
            } else {
                StatusRowView(list: list, theme: theme, tick: cell.tick).draw(at: place.y,
                                                                             selected: place.row == selection,
                                                                             into: &buffer)
            }
        }
        frame.draw(buffer, x: area.x, y: area.y)
    }

    /// One cell: a column for the selection marker, the picture, and the caption under it.
    private func drawCell(_ index: Int, x: Int, y: Int, selected: Bool, into buffer: inout CellBuffer) {
        let box = grid.picture
        let left = x + Self.pictureColumn
        cell.thumbnail(ofItem: index, box: box, x: left, y: y, into: &buffer)
        let title = list.items[index].title
        let marked = marks.contains(index) ? ListView.mark + " " : ""
        let caption = TextWrap.truncate(marked + (title.isEmpty ? "(untitled)" : title), width: box.columns)
        let style = selected ? theme.title.merging(theme.selection) : theme.subtitle
        if selected {
            buffer.fill(x: left, y: y + box.rows, width: box.columns, height: 1, with: Cell(" ", style: style))
            cell.selectionBar(x: x, y: y, lines: box.rows + 1, into: &buffer)
        }
        buffer.put(caption, x: left, y: y + box.rows, style: style, maxWidth: box.columns)
        // At the picture's top right, not by the caption: the overlay's panel covers the bottom of the screen.
        cell.slotTag(ofItem: index, right: left + box.columns, y: y, room: box.columns, into: &buffer)
    }
}
