import Cells
import FoundationEssentials

/// The frame model: what `update()` works out once for the frame that follows.
extension TableController {
    /// What the next frame shows where: the one `update()` worked out when nothing changed since, else worked out
    /// now and not stored (a frame composed without `update()`).
    public var frameModel: FrameModel {
        if let model = storedModel, model.basis == basis { return model }
        return makeFrameModel()
    }

    /// Works the frame model out and keeps it for the frame (the end of `update()`).
    func storeFrameModel(areaRows: Range<Int>) {
        storedModel = makeFrameModel(areaRows: areaRows)
    }

    /// The state the frame model depends on.
    private var basis: FrameModel.Basis {
        FrameModel.Basis(changes: changes.count, viewport: viewport, columns: size.columns, rows: size.rows,
                         mode: listLayout.mode, displayCount: list.displayCount, screen: screen.kind,
                         overlay: showingReuseOverlay)
    }

    private func makeFrameModel(areaRows: Range<Int>? = nil) -> FrameModel {
        let area = ScreenArea(x: 0, y: listLayout.listTop, width: size.columns, height: listHeight)
        var paneText: ScrolledText?
        var picture: DetailPicture?
        switch screen.beneath {
        case .detail(let detail):
            let view = DetailPaneView(pane: detail, theme: configuration.theme, tick: tick)
            paneText = view.scrolledText(width: area.width, height: area.height)
            if !showingReuseOverlay, !screen.isHelp, let url = detail.imageURL,
               var footprint = view.pictureFootprint(width: area.width, height: area.height) {
                footprint.y += area.y
                picture = DetailPicture(url: url, footprint: footprint, frame: detail.animationFrame)
            }
        case .pageFailure(let pane):
            paneText = PageFailurePaneView(pane: pane, theme: configuration.theme)
                .scrolledText(width: area.width, height: area.height)
        case .list, .filter, .help:
            break
        }
        // The rows under a pane are placed too: the settling checks and the spinner read them as they did.
        let placed = listLayout.placedRows(viewport, in: list)
        let visible = placed.first.map { $0.row..<(placed[placed.count - 1].row + 1) }
            ?? navigation.visibleRows(in: list)
        return FrameModel(visibleRows: visible, areaRows: areaRows ?? listLayout.areaRows(viewport, in: list),
                          placed: placed, listArea: area,
                          overlayLines: showingReuseOverlay ? listLayout.coveredLines : 0, paneText: paneText,
                          detailPicture: picture, basis: basis)
    }
}
