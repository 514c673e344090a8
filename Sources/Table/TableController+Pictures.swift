import Cells
import FoundationEssentials

/// The pictures the frame shows and where: what the App's terminal pictures (sixel, iTerm2, kitty placements) draw
/// over the text art after each frame.
extension TableController {
    /// Each visible row (or grid cell) whose thumbnail's text art is painted, at its text art's cells, and the
    /// detail pane's picture; read after `update()`, as `frame()` is. A picture in real pixels is shown whole or not
    /// at all, so a row cut by the list area's bottom, covered by the reuse overlay (or, in the grid, tagged by it)
    /// or under the help is listed as not whole (`ScreenPicture.isWhole`): only text cells may show it, in part.
    /// Rows under a pane are left out.
    public var screenPictures: [ScreenPicture] {
        let model = frameModel
        if let pane = model.detailPicture {
            return [ScreenPicture(owner: .pane, url: pane.url, footprint: pane.footprint, frame: pane.frame)]
        }
        switch screen.beneath {
        case .list, .filter: break
        case .detail, .pageFailure, .help: return []
        }
        guard let box = listLayout.thumbnailBox else { return [] }
        let covered = screen.isHelp || (showingReuseOverlay && listLayout.grid != nil)
        let area = model.listArea
        let bottom = area.y + area.height - model.overlayLines
        var pictures: [ScreenPicture] = []
        for place in model.placed {
            guard let index = itemIndex(forRow: place.row), let slot = pool.slot(forItem: index),
                  let url = slot.imageURL, case .loaded(let art) = slot.thumbnail else { continue }
            // Where the views draw the text art: the box's column in a row or a cell, the art centred in the box.
            let column = listLayout.grid == nil ? ListView.thumbnailColumn : GridView.pictureColumn
            let offset = ThumbnailView.pictureOffset(of: CellSize(columns: art.width, rows: art.height), in: box)
            let x = area.x + place.x + column + offset.x
            let y = area.y + place.y + offset.y
            guard art.width > 0, art.height > 0, y >= area.y, y < bottom else { continue }
            pictures.append(ScreenPicture(owner: .slot(id: slot.id, generation: slot.bindingGeneration), url: url,
                                          footprint: PictureFootprint(x: x, y: y, columns: art.width,
                                                                      rows: art.height),
                                          isWhole: !covered && y + art.height <= bottom))
        }
        return pictures
    }

    /// Whether the rows are flying past (a held key, a fast wheel): pictures in pixels wait for the screen the
    /// scroll stops on (the table wakes itself when it comes to rest).
    public var isScrollFlying: Bool {
        binder.isFlying(rowsOnScreen: frameModel.visibleRows.count)
    }
}
