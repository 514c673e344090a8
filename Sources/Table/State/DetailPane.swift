import Cells
import FoundationEssentials
import Items

/// The detail pane opened with Enter: the item it shows, where its text is scrolled, and the state of its image,
/// loaded as large as the pane allows by the `ThumbnailBinder` (`DetailPaneView` draws it).
@MainActor
public final class DetailPane {
    public let itemIndex: Int
    public let item: Item
    /// The row's thumbnail state when the pane opened (its error is shown here).
    public let rowThumbnail: ThumbnailState
    /// Where the text stands.
    public internal(set) var textScroll = TextScroll()
    public private(set) var image: ThumbnailState = .none
    /// The box the image was last asked for at; `update()` asks again when the pane's size gives another.
    private(set) var imageBox: CellSize?

    /// Whether the small image is used here too (`--low-data`).
    public let lowData: Bool
    /// The full-size image failed and the small one is shown instead; the full-size failure is kept to show.
    public private(set) var fullSizeFailure: String?
    /// A one-line note on what the last cache action did ("removed from the cache").
    public private(set) var cacheNote: String?
    /// Whether the picture is an animation that plays (true) or is paused (false); nil for a still picture.
    public private(set) var animationPlays: Bool?
    /// Frames of the animation shown since its picture arrived (0: the first, the still picture): a picture drawn in
    /// pixels is sent again when it changes.
    public private(set) var animationFrame = 0

    init(itemIndex: Int, item: Item, rowThumbnail: ThumbnailState, lowData: Bool) {
        self.itemIndex = itemIndex
        self.item = item
        self.rowThumbnail = rowThumbnail
        self.lowData = lowData
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

    /// The box the image is to be loaded at in a pane of this size, or nil when there is no image or no room.
    func wantedImageBox(width: Int, height: Int) -> CellSize? {
        guard imageURL != nil else { return nil }
        return Self.geometry(width: width, height: height, hasImage: true).image?.box
    }

    /// The cells of the picture's text art, once loaded.
    var pictureCells: CellSize? {
        guard case .loaded(let art) = image else { return nil }
        return CellSize(columns: art.width, rows: art.height)
    }

    /// The image's load started (or restarted) at `box`.
    func imageLoading(box: CellSize) {
        imageBox = box
        image = .loading
        animationPlays = nil
        animationFrame = 0
    }

    /// The picture's animation plays, or is paused.
    func animationPlaying(_ plays: Bool) {
        animationPlays = plays
    }

    /// The animation's next frame shows: in pixels, its cells stay the first frame's text art.
    func animationFrameShown() {
        animationFrame += 1
    }

    /// The animation starts again from its first frame (the still picture).
    func restartAnimation() {
        animationFrame = 0
    }

    /// The picture's animation stopped on its own (a frame failed to decode): the frame shown stays, as a still.
    func animationEnded() {
        animationPlays = nil
    }

    /// The image's load ended: the picture, or why it failed.
    func imageArrived(_ state: ThumbnailState) {
        image = state
    }

    /// Whether a failed load of `url` falls back to the small image (a full-size image failed, not in low-data
    /// mode); if so, the failure is kept to show and `imageURL` is the small image from now on.
    func fallsBack(from url: URL, after reason: String) -> Bool {
        guard !lowData, fullSizeFailure == nil, let small = item.thumbnailURL, small != url else { return false }
        fullSizeFailure = reason
        return true
    }

    /// Forgets the full-size failure and the cache note before the image is loaded again (the `r` key).
    func prepareReload() {
        fullSizeFailure = nil
        cacheNote = nil
    }

    /// Notes that `count` images were removed from the caches (the `d` key).
    func removedFromCache(count: Int) {
        cacheNote = count == 0 ? "no image to remove" : "removed from the cache; r fetches it again"
    }

    /// Scrolls the text by `lines` (negative: up), within its length.
    public func scroll(by lines: Int) {
        textScroll.scroll(by: lines)
    }
}
