import Cells
import FoundationEssentials
import Items

extension TableController {
    /// Composes the whole screen into a cell buffer: header, rows or the grid (or the detail pane), footer, status
    /// line, the reuse overlay, help.
    /// It reads state and writes cells, nothing else: `update()` starts the loads, caches the rows' heights and
    /// works out the frame model (what is placed where) first; composed without it, the frame works the model out
    /// and stores nothing. Its cost depends on the rows on screen, not on the rows loaded. A thumbnail whose owner
    /// has cells in `pictureCells` (kitty's placeholders, from the App's terminal pictures) shows them in place of
    /// its text art.
    public func frame(pictureCells: PictureCells = [:]) -> CellBuffer {
        let (columns, rows) = size
        let model = frameModel
        var frame = CellBuffer(width: columns, height: rows)
        let theme = configuration.theme
        let area = model.listArea
        switch screen.beneath {
        case .detail(let detail):
            DetailPaneView(pane: detail, theme: theme, tick: tick, text: model.paneText).draw(into: &frame, area: area)
        case .pageFailure(let pageFailure):
            PageFailurePaneView(pane: pageFailure, theme: theme, text: model.paneText).draw(into: &frame, area: area)
        case .list, .filter, .help:
            drawRows(model, theme: theme, pictureCells: pictureCells, into: &frame)
        }
        if rows >= 4 {
            HeaderLine(sourceName: source.name, list: list, selection: viewport.selection, screen: screen,
                       theme: theme, followingEnd: isFollowingEnd, marked: marks.count)
                .draw(into: &frame)
            frame.fill(x: 0, y: rows - 2, width: columns, height: 1, with: Cell(" ", style: theme.footer))
            frame.put(TextWrap.truncate(" " + source.attribution, width: columns), x: 0, y: rows - 2,
                      style: theme.footer)
        }
        if let progress = batchProgress {
            BatchProgressBar(progress: progress, theme: theme).draw(into: &frame, y: rows - 1)
        } else {
            StatusLine(list: list, screen: screen, note: status, itemSelected: selectedItem != nil,
                       mode: listLayout.mode, theme: theme, picking: configuration.picking)
                .draw(into: &frame, y: rows - 1)
        }
        if model.overlayLines > 0 {
            reuseOverlay.draw(into: &frame, area: ScreenArea(x: 0, y: area.y + area.height - model.overlayLines,
                                                             width: columns, height: model.overlayLines))
        }
        if screen.isHelp {
            HelpView(lines: configuration.helpLines, theme: theme).draw(into: &frame, scroll: helpScroll)
        }
        return frame
    }

    /// Draws the rows or the grid, placed as the frame model says.
    private func drawRows(_ model: FrameModel, theme: Theme, pictureCells: PictureCells,
                          into frame: inout CellBuffer) {
        let cell = ItemCellDrawer(pool: pool, theme: theme, tick: tick, showsSlots: showingReuseOverlay,
                                  pictureCells: pictureCells)
        if let grid = listLayout.grid {
            GridView(list: list, grid: grid, placed: model.placed, selection: viewport.selection, cell: cell,
                     marks: marks)
                .draw(into: &frame, area: model.listArea)
        } else {
            ListView(list: list, layout: layout, placed: model.placed, selection: viewport.selection, cell: cell,
                     marks: marks)
                .draw(into: &frame, area: model.listArea)
        }
    }
}
