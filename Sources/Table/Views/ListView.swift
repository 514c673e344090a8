import Cells
import Items

/// Draws the list area: the rows on screen, each with its thumbnail block and text, and the status row at the end;
/// the list's rows and compact ones alike (`RowLayout` says where each line goes).
@MainActor
struct ListView: AreaView {
    var list: ListState
    var layout: RowLayout
    /// The rows on screen and the line each starts on.
    var placed: [FrameModel.Placed]
    var selection: Int
    /// Draws each row's thumbnail, selection bar and slot tag.
    var cell: ItemCellDrawer
    /// The items marked to be picked together, by index in `list.items`.
    var marks: Set<Int> = []

    /// What marks an item to be picked (`pick --multi`), in the column between the selection's bar and the picture.
    static var mark: String { TerminalText.unicodeAvailable ? "●" : "*" }
    /// The column a row's thumbnail box starts at: after the selection's bar and the mark.
    static let thumbnailColumn = 2

    private var theme: Theme { cell.theme }

    /// Draws the rows into the list area (clipped to it: the last row may show in part).
    func draw(into frame: inout CellBuffer, area: ScreenArea) {
        var buffer = CellBuffer(width: area.width, height: area.height)
        StatusRowView(list: list, theme: theme, tick: cell.tick).drawNoMatches(into: &buffer)
        for place in placed {
            if let index = list.itemIndex(forRow: place.row) {
                drawItemRow(index, at: place.y, selected: place.row == selection, into: &buffer)
            } else {
                StatusRowView(list: list, theme: theme, tick: cell.tick).draw(at: place.y,
                                                                             selected: place.row == selection,
                                                                             into: &buffer)
            }
        }
        frame.draw(buffer, x: area.x, y: area.y)
    }

    private func drawItemRow(_ index: Int, at y: Int, selected: Bool, into buffer: inout CellBuffer) {
        let item = list.items[index]
        let text = layout.textLines(for: item)
        let contentHeight = layout.contentHeight(of: text)
        if selected {
            buffer.restyle(x: layout.textColumn - 1, y: y, width: buffer.width, height: contentHeight) {
                $0 = $0.merging(theme.selection)
            }
            cell.selectionBar(x: 0, y: y, lines: contentHeight, into: &buffer)
        }
        if let box = layout.thumbnail { cell.thumbnail(ofItem: index, box: box, x: Self.thumbnailColumn, y: y, into: &buffer) }
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
        if let subtitle = text.subtitle, text.subtitleBeside, let title = text.title.first {
            let besideX = x + title.displayWidth + RowText.besideGap
            buffer.put(subtitle, x: besideX, y: y, style: merge(theme.subtitle),
                       maxWidth: x + layout.textWidth - besideX)
        } else if let subtitle = text.subtitle {
            buffer.put(subtitle, x: x, y: line, style: merge(theme.subtitle), maxWidth: layout.textWidth)
            line += 1
        }
        if let attribution = text.attribution {
            buffer.put(attribution, x: x, y: line, style: merge(theme.attribution), maxWidth: layout.textWidth)
        }
        cell.slotTag(ofItem: index, right: buffer.width, y: y, room: buffer.width, into: &buffer)
    }
}
