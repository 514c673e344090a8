import Cells
import FoundationEssentials
import Items

/// The panes Enter opens: the detail pane on an item (`DetailPaneImage` loads its picture) and the pane on a failed
/// page; and the cache actions on the selected item's images.
extension TableController {
    /// Opens the detail pane on the selected item, or the failure's pane when the row of a failed page is selected.
    public func openSelected() {
        guard let (index, item) = selectedItem else {
            if list.isPausedByFilter {
                paging.readMoreDespiteFilter()
                changed()
            } else if case .stopped = list.status {
                resumePaging()
            } else if case .failed(let message, _) = list.status {
                show(.pageFailure(PageFailurePane(reason: PageFailurePane.reason(message), firstPage: items.isEmpty,
                                                  loadedRows: items.count)))
            }
            return
        }
        show(.detail(paneImage.open(itemIndex: index, item: item, width: size.columns, height: listHeight)))
    }

    /// Shows the item `delta` rows on (negative: back) in the detail pane without closing it (`n`/`p`); the list's
    /// selection follows, so paging loads more near the end as it does in the list. At either end the status line
    /// says why nothing moved.
    public func openAdjacent(by delta: Int) {
        guard detail != nil else { return }
        let target = viewport.selection + delta
        guard target >= 0, target < itemCount else {
            say(target < 0 ? "this is the first item" : paging.endNote)
            return
        }
        navigation.select(row: target, in: list)
        openSelected()
    }

    /// Closes the detail pane (or the failure's pane), back to the list as it was.
    public func closeDetail() {
        paneImage.close()
        if detail != nil || pageFailure != nil { show(.list) }
        changed()
    }

    /// Loads the detail pane's image again (the `r` key in the pane): from the caches if it is there, else fetched
    /// anew; the full-size one again after it failed.
    public func reloadDetailImage() {
        guard let detail else { return }
        paneImage.reload(detail)
        changed()
    }

    /// Pauses the detail pane's animation or plays it again (Space in the pane); false when no animation plays there.
    public func togglePaneAnimation() -> Bool {
        guard let detail, binder.togglePaneAnimation(of: detail) else { return false }
        changed()
        return true
    }

    /// Plays the detail pane's animations in pixels: `frames` gives, for a picture's URL and the cells its first
    /// frame's text art takes, the frames to play (their cells empty: the pane's picture says which frame shows,
    /// `DetailPicture.frame`); nil when it is no animation. Unset, the frames play as text art.
    public func playPaneAnimations(inPixels frames: @escaping @MainActor (URL, CellSize) async
                                     -> (any AnimationFrameSource)?) {
        binder.pixelAnimation = frames
    }

    /// Plays the detail pane's animation in pixels again from its first frame (paused if it was): after the screen
    /// was given back and taken again, or the cells' pixel size changed, the terminal holds none of its frames.
    public func replayPaneAnimation() {
        guard let detail else { return }
        binder.replayPixelAnimation(of: detail)
    }

    /// Deletes the detail pane's image (and the row's thumbnail) from the memory and disk caches (the `d` key in the
    /// pane).
    public func removeDetailImageFromCache() {
        guard let detail else { return }
        paneImage.removeFromCache(detail)
        changed()
    }

    /// Deletes the selected row's images (full size and thumbnail) from the memory and disk caches (the `d` key in
    /// the list), saying so in the status line; the picture shown stays until `r` fetches it again.
    public func removeSelectedImageFromCache() {
        guard let (_, item) = selectedItem else { return say("nothing removed: no item is selected") }
        say(binder.removeFromCache(imagesOf: item) == 0
            ? "nothing removed: this item has no image"
            : "removed the image from the memory and disk caches; r fetches it again")
    }
}
