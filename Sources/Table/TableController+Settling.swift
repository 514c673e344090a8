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
    /// it loads, or the rows loaded do not fill the list area and more are to come (`Paging.need`).
    public var isWaitingForPage: Bool {
        paging.isWaiting(for: pageNeed(visible: frameModel.areaRows))
    }

    /// The rows on screen with an image whose thumbnail has neither loaded nor failed (loading, or not yet bound).
    /// 0 when the rows show no thumbnails at this width.
    public var waitingThumbnails: Int {
        guard thumbnailBox != nil else { return 0 }
        return frameModel.areaRows.count { row in
            guard let index = itemIndex(forRow: row), items[index].rowImageURL != nil else { return false }
            switch pool.slot(forItem: index)?.thumbnail ?? .none {
            case .loaded, .failed, .lookupFailed: return false
            case .loading, .none: return true
            }
        }
    }

    /// The rows on screen whose thumbnail failed: the print mode names them on stderr.
    public var failedThumbnails: [(title: String, reason: String)] {
        frameModel.areaRows.compactMap { row in
            guard let index = itemIndex(forRow: row),
                  let reason = pool.slot(forItem: index)?.thumbnail.failureReason else { return nil }
            return (items[index].title, reason)
        }
    }
}
