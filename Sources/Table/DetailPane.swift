import Cells
import Foundation
import Items

/// The detail pane opened with Enter: every field of the item (scrollable), the image as large as the pane allows,
/// the attribution with its source and URL, and the load state or error of the row's thumbnail and of the image.
@MainActor
public final class DetailPane {
    public let itemIndex: Int
    public let item: Item
    /// The row's thumbnail state when the pane opened (its error is shown here).
    public let rowThumbnail: ThumbnailState
    /// Where the text stands.
    public private(set) var textScroll = TextScroll()
    public private(set) var image: ThumbnailState = .none
    private var imageBox: CellSize?
    private var generation = 0
    private var task: Task<Void, Never>?
    private let loader: any ThumbnailLoading
    private let onChange: @MainActor () -> Void

    /// Whether the small image is used here too (`--low-data`).
    public let lowData: Bool
    /// The full-size image failed and the small one is shown instead; the full-size failure is kept to show.
    public private(set) var fullSizeFailure: String?
    /// A one-line note on what the last cache action did ("removed from the cache").
    public private(set) var cacheNote: String?

    init(itemIndex: Int, item: Item, rowThumbnail: ThumbnailState, loader: any ThumbnailLoading, lowData: Bool = false,
         onChange: @escaping @MainActor () -> Void) {
        self.itemIndex = itemIndex
        self.item = item
        self.rowThumbnail = rowThumbnail
        self.loader = loader
        self.lowData = lowData
        self.onChange = onChange
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
        onChange()
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
            self.onChange()
        }
    }

    func resized(in table: TableController) {
        layoutImage(width: table.size.columns, height: table.listHeight)
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

    /// The text of the pane, wrapped to `width`.
    func textLines(width: Int) -> [(String, CellStyle.Role)] {
        var lines: [(String, CellStyle.Role)] = []
        for line in TextWrap.lines(item.title, width: width) { lines.append((line, .title)) }
        if !item.subtitle.isEmpty {
            for line in TextWrap.lines(item.subtitle, width: width) { lines.append((line, .subtitle)) }
        }
        lines.append(("", .plain))
        func field(_ label: String, _ value: String) {
            let wrapped = TextWrap.lines(label + ": " + value, width: width)
            for (i, line) in wrapped.enumerated() { lines.append((line, i == 0 ? .labelled(label.count + 1) : .plain)) }
        }
        for f in item.fields { field(f.label, f.value) }
        if !item.fields.isEmpty { lines.append(("", .plain)) }
        if let url = item.imageURL { field("Image", url.absoluteString) }
        if let url = item.thumbnailURL { field("Thumbnail", url.absoluteString) }
        field("Attribution", item.attribution ?? "none given")
        lines.append(("", .plain))
        field("Thumbnail state", Self.describe(rowThumbnail))
        if let failure = fullSizeFailure { field("Full-size image", "failed: \(failure); showing the thumbnail") }
        if imageURL != nil { field("Image state", Self.describe(image)) }
        if let note = cacheNote { field("Cache", note) }
        return lines
    }

    static func describe(_ state: ThumbnailState) -> String {
        switch state {
        case .none: "no image"
        case .loading: "loading…"
        case .loaded(let picture): "loaded (\(picture.width)x\(picture.height) cells)"
        case .failed(let reason): "failed: \(reason)"
        }
    }

    /// Composes the pane into a buffer of the given size.
    func compose(width: Int, height: Int, theme: Theme, tick: Int) -> CellBuffer {
        var pane = CellBuffer(width: width, height: height)
        let geometry = Self.geometry(width: width, height: height, hasImage: imageURL != nil)
        if let (x, y, box) = geometry.image {
            switch image {
            case .loaded(let picture):
                pane.draw(picture, x: x + (box.columns - picture.width) / 2, y: y + (box.rows - picture.height) / 2)
            case .loading:
                let frames = TerminalText.unicodeAvailable ? TableController.spinnerFrames
                    : TableController.asciiSpinnerFrames
                pane.put("\(frames[tick % frames.count]) loading image…", x: x + 1, y: y + box.rows / 2,
                         style: theme.subtitle, maxWidth: box.columns - 1)
            case .failed(let reason):
                pane.put((TerminalText.unicodeAvailable ? "✗ " : "x ") + "image failed", x: x + 1, y: y + box.rows / 2,
                         style: theme.error, maxWidth: box.columns - 1)
                pane.put(reason, x: x + 1, y: y + box.rows / 2 + 1, style: theme.subtitle, maxWidth: box.columns - 1)
            case .none:
                break
            }
        }
        let t = geometry.text
        pane.drawScrolled(textLines(width: t.width), x: t.x, y: t.y, width: t.width, height: t.height,
                          scroll: &textScroll, theme: theme)
        return pane
    }
}

extension CellStyle {
    /// What a line of the detail pane is, for its style.
    enum Role {
        case title, subtitle, plain, error
        /// A "Label: value" line whose first `n` characters are the label.
        case labelled(Int)
    }
}
