import Cells
import FoundationEssentials

/// Whether the screen has stopped changing on its own: what the print mode waits for before it prints.
extension TableController {
    /// Whether the screen shows all it will without a key: no page that the screen needs is still to come, and every
    /// thumbnail on screen has loaded or failed.
    ///
    /// Read it after `update()`, which binds the rows on screen to slots and starts their loads; a row on screen that
    /// has no slot yet counts as waiting. A page the screen does not need (the next one, fetched ahead while the rows
    /// on screen fill it) does not count: it changes nothing on screen but the header's count.
    public var isSettled: Bool {
        !isWaitingForPage && waitingThumbnails == 0
    }

    /// Whether a page is loading, or still to load, that the screen needs: the list's status row is on screen while
    /// it loads, or the rows loaded do not fill the list area and more are to come.
    public var isWaitingForPage: Bool {
        switch listStatus {
        case .loading, .more: break
        case .failed, .end, .stopped: return false
        }
        let rows = visibleRows
        // A loaded row lies below the screen: the screen is full of rows already.
        guard rows.upperBound >= itemCount else { return false }
        // The status row ("loading more…") shows.
        if rows.upperBound > itemCount { return true }
        return filledLines < listHeight
    }

    /// The lines of the list area the rows on screen fill: the rows' heights, or in the grid the heights of its lines
    /// on screen (a row's height there is a cell's, not a line's).
    private var filledLines: Int {
        if let grid = listLayout.grid {
            return grid.visibleLines(viewport, height: listHeight, in: list).reduce(0) {
                $0 + grid.lineHeight($1, in: list)
            }
        }
        return visibleRows.reduce(0) { $0 + rowHeight($1) }
    }

    /// The rows on screen with an image whose thumbnail has neither loaded nor failed (loading, or not yet bound).
    /// 0 when the rows show no thumbnails at this width.
    public var waitingThumbnails: Int {
        guard thumbnailBox != nil else { return 0 }
        return visibleRows.count { row in
            guard let index = itemIndex(forRow: row), items[index].rowImageURL != nil else { return false }
            switch pool.slot(forItem: index)?.thumbnail ?? .none {
            case .loaded, .failed, .lookupFailed: return false
            case .loading, .none: return true
            }
        }
    }

    /// The rows on screen whose thumbnail failed: the print mode names them on stderr.
    public var failedThumbnails: [(title: String, reason: String)] {
        visibleRows.compactMap { row in
            guard let index = itemIndex(forRow: row),
                  let reason = pool.slot(forItem: index)?.thumbnail.failureReason else { return nil }
            return (items[index].title, reason)
        }
    }
}
