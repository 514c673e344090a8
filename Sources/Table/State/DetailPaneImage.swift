import Cells
import Items

/// The detail pane's image: loaded at the size the pane allows (again after a resize), loaded anew on `r`, and
/// removed from the caches on `d`. The loads themselves are the `ThumbnailBinder`'s, one at a time.
@MainActor
struct DetailPaneImage {
    let binder: ThumbnailBinder
    /// Whether the pane shows the small image (`--low-data`).
    let lowData: Bool

    /// Opens a pane on an item, its image loading at the size the pane allows on a list area of this size.
    func open(itemIndex: Int, item: Item, width: Int, height: Int) -> DetailPane {
        binder.cancelPaneImage()
        let pane = DetailPane(itemIndex: itemIndex, item: item,
                              rowThumbnail: binder.pool.slot(forItem: itemIndex)?.thumbnail ?? .none,
                              lowData: lowData)
        bind(pane, width: width, height: height)
        return pane
    }

    /// Starts (or restarts, after a resize) the pane's image load at the size the pane allows.
    func bind(_ pane: DetailPane, width: Int, height: Int) {
        guard let box = pane.wantedImageBox(width: width, height: height), box != pane.imageBox else { return }
        binder.loadImage(of: pane, box: box)
    }

    /// Loads the image again: from the caches if it is there, else fetched anew; the full-size one again after it
    /// failed.
    func reload(_ pane: DetailPane) {
        pane.prepareReload()
        if let box = pane.imageBox { binder.loadImage(of: pane, box: box) }
    }

    /// Deletes the pane's image (and the row's thumbnail) from the memory and disk caches.
    func removeFromCache(_ pane: DetailPane) {
        pane.removedFromCache(count: binder.removeFromCache(imagesOf: pane.item))
    }

    /// Stops the image's load (the pane closed).
    func close() {
        binder.cancelPaneImage()
    }
}
