import Cells
import Foundation
import Items

/// The detail pane opened with Enter: the item it shows, where its text is scrolled, and its image, loaded as large as
/// the pane allows (`DetailPaneView` draws it).
@MainActor
public final class DetailPane {
    public let itemIndex: Int
    public let item: Item
    /// The row's thumbnail state when the pane opened (its error is shown here).
    public let rowThumbnail: ThumbnailState
    /// Where the text stands.
    public internal(set) var textScroll = TextScroll()
    public private(set) var image: ThumbnailState = .none
    private var imageBox: CellSize?
    private var generation = 0
    private var task: Task<Void, Never>?
    private let loader: any ThumbnailLoading
    private let changed: ChangeSignal

    /// Whether the small image is used here too (`--low-data`).
    public let lowData: Bool
    /// The full-size image failed and the small one is shown instead; the full-size failure is kept to show.
    public private(set) var fullSizeFailure: String?
    /// A one-line note on what the last cache action did ("removed from the cache").
    public private(set) var cacheNote: String?

    init(itemIndex: Int, item: Item, rowThumbnail: ThumbnailState, loader: any ThumbnailLoading, lowData: Bool,
         changed: ChangeSignal) {
        self.itemIndex = itemIndex
        self.item = item
        self.rowThumbnail = rowThumbnail
        self.loader = loader
        self.lowData = lowData
        self.changed = changed
    }

    /// The image shown: the full-size one when the item has one, else its thumbnail; the small one in low-data
    /// mode, or after the full-size one failed.
    public var imageURL: URL? {
        if lowData || fullSizeFailure != nil { return item.thumbnailURL ?? item.imageURL }
        return item.imageURL ?? item.thumbnailURL
    }

    /// Where the image and the text go in a pane of this size: image at the left on wide screens, on top otherwise.
    struct Geometry {
        var image: (x: Int, y: Int, box: CellSize)?
        var text: (x: Int, y: Int, width: Int, height: Int)
    }

    static func geometry(width: Int, height: Int, hasImage: Bool) -> Geometry {
        guard hasImage, width >= 20, height >= 6 else {
            return Geometry(image: nil, text: (1, 0, max(1, width - 2), height))
        }
        if width >= 70 {
            let columns = min(width / 2, 2 * 2 * (height - 1))
            return Geometry(image: (1, 1, CellSize(columns: columns, rows: height - 2)),
                            text: (columns + 3, 1, max(1, width - columns - 4), height - 1))
        }
        let rows = max(3, height / 2)
        return Geometry(image: (1, 1, CellSize(columns: width - 2, rows: rows - 1)),
                        text: (1, rows + 1, max(1, width - 2), max(1, height - rows - 1)))
    }

    /// Starts (or restarts, after a resize) the image load at the size the pane allows.
    func layoutImage(width: Int, height: Int) {
        guard let url = imageURL,
              let box = Self.geometry(width: width, height: height, hasImage: true).image?.box else {
            return
        }
        guard box != imageBox else { return }
        imageBox = box
        reload(url: url, box: box)
    }

    /// Loads the image again (the `r` key in the pane): from the caches if it is there, else fetched anew.
    public func reloadImage() {
        fullSizeFailure = nil
        cacheNote = nil
        guard let url = imageURL, let box = imageBox else { return }
        reload(url: url, box: box)
    }

    /// Deletes the image (and the row's thumbnail) from the memory and disk caches (the `d` key in the pane).
    public func removeImageFromCache() {
        var removed: [String] = []
        for url in Set([item.imageURL, item.thumbnailURL].compactMap(\.self)) {
            loader.removeFromCache(url)
            removed.append(url.lastPathComponent)
        }
        cacheNote = removed.isEmpty ? "no image to remove" : "removed from the cache; r fetches it again"
        changed.send()
    }

    private func reload(url: URL, box: CellSize) {
        task?.cancel()
        generation += 1
        let expected = generation
        image = .loading
        let loader = self.loader
        task = Task { [weak self] in
            guard let state = await ThumbnailState.load(loader.thumbnail(url, size: box)) else { return }
            guard let self, self.generation == expected, !Task.isCancelled else { return }
            // Without low-data mode, a full-size image that fails falls back to the small one.
            if case .failed(let reason) = state, !self.lowData, self.fullSizeFailure == nil,
               let small = self.item.thumbnailURL, small != url {
                self.fullSizeFailure = reason
                self.reload(url: small, box: box)
                return
            }
            self.image = state
            self.changed.send()
        }
    }

    /// Scrolls the text by `lines` (negative: up), within its length.
    public func scroll(by lines: Int) {
        textScroll.scroll(by: lines)
    }

    /// Cancels the image load.
    func close() {
        task?.cancel()
        task = nil
    }
}
