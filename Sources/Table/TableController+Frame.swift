import Cells
import FoundationEssentials
import Items

extension TableController {
    /// Composes the whole screen into a cell buffer: header, rows or the grid (or the detail pane), footer, status
    /// line, help.
    /// It reads state and writes cells, nothing else: `update()` starts the loads, caches the rows' heights and
    /// records the scrolled texts' extents first; composed without it, the frame computes what it needs and stores
    /// nothing. Its cost depends on the rows on screen, not on the rows loaded.
    public func frame() -> CellBuffer {
        let (columns, rows) = size
        var frame = CellBuffer(width: columns, height: rows)
        let theme = configuration.theme
        let body: CellBuffer
        switch screen.beneath {
        case .detail(let detail):
            body = DetailPaneView(pane: detail, theme: theme, tick: tick).draw(width: columns, height: listHeight)
        case .pageFailure(let pageFailure):
            body = PageFailurePaneView(pane: pageFailure, theme: theme).draw(width: columns, height: listHeight)
        case .list, .filter, .help:
            body = rowsBody(theme: theme)
        }
        frame.draw(body, x: 0, y: listLayout.listTop)
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
        if showingReuseOverlay {
            reuseOverlay.draw(into: &frame, top: listLayout.listTop, listHeight: listHeight,
                              height: listLayout.coveredLines)
        }
        if screen.isHelp {
            HelpView(lines: configuration.helpLines, theme: theme).draw(into: &frame, scroll: helpScroll)
        }
        return frame
    }

    /// The rows or the grid, as the list area shows them.
    private func rowsBody(theme: Theme) -> CellBuffer {
        if let grid = listLayout.grid {
            let placed = grid.placedCells(viewport, height: listLayout.openHeight, in: list)
            return GridView(list: list, grid: grid, placed: placed, selection: viewport.selection, pool: pool,
                            theme: theme, tick: tick, showsSlots: showingReuseOverlay, marks: marks)
                .draw(width: size.columns, height: listHeight)
        }
        let placed = listLayout.placedRows(viewport, in: list)
        return ListView(list: list, layout: layout, placed: placed, selection: viewport.selection, pool: pool,
                        theme: theme, tick: tick, showsSlots: showingReuseOverlay, marks: marks)
            .draw(width: size.columns, height: listHeight)
    }
}
