import Cells
import FoundationEssentials
import Items

/// Draws the detail pane: every field of the item (scrollable), the image as large as the pane allows, the
/// attribution with its source and URL, and the load state or error of the row's thumbnail and of the image.
@MainActor
struct DetailPaneView: AreaView {
    let pane: DetailPane
    var theme: Theme
    var tick: Int
    /// The pane's text as the frame model laid it out for this size; nil: laid out when drawn.
    var text: ScrolledText?

    /// The text of the pane, wrapped to `width`.
    func textLines(width: Int) -> [(String, CellStyle.Role)] {
        let item = pane.item, fields = item.allFields
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
        for f in fields { field(f.label, f.value) }
        if !fields.isEmpty { lines.append(("", .plain)) }
        // A source that lists the picture among its fields (SWAPI's lookup does) has said it: once is enough.
        func linkField(_ label: String, _ url: URL?) {
            guard let url, !fields.contains(where: { $0.label == label && $0.value == url.absoluteString })
            else { return }
            field(label, url.absoluteString)
        }
        linkField("Image", item.imageURL)
        linkField("Thumbnail", item.thumbnailURL)
        field("Attribution", item.attribution ?? "none given")
        lines.append(("", .plain))
        field("Thumbnail state", Self.describe(pane.rowThumbnail))
        if let failure = pane.fullSizeFailure { field("Full-size image", "failed: \(failure); showing the thumbnail") }
        if pane.imageURL != nil { field("Image state", Self.describe(pane.image)) }
        if let plays = pane.animationPlays {
            field("Animation", plays ? "playing (Space pauses)" : "paused (Space plays)")
        }
        if let note = pane.cacheNote { field("Cache", note) }
        return lines
    }

    static func describe(_ state: ThumbnailState) -> String {
        switch state {
        case .none: "no image"
        case .loading: "loading…"
        case .loaded(let picture): "loaded (\(picture.width)x\(picture.height) cells)"
        case .failed, .lookupFailed: "failed: \(state.failureReason ?? "")"
        }
    }

    /// The pane's text and where it goes in a pane of the given size (beside or below the image).
    func scrolledText(width: Int, height: Int) -> ScrolledText {
        let t = DetailPane.geometry(width: width, height: height, hasImage: pane.imageURL != nil).text
        return ScrolledText(lines: textLines(width: t.width), x: t.x, y: t.y, width: t.width, height: t.height)
    }

    /// The cells the loaded picture covers in a pane of the given size (relative to the pane), or nil while there is
    /// none: where its text art is drawn, and where a picture in real pixels goes over it, so that the layout is the
    /// same in both.
    func pictureFootprint(width: Int, height: Int) -> PictureFootprint? {
        guard case .loaded(let picture) = pane.image,
              let area = DetailPane.geometry(width: width, height: height, hasImage: pane.imageURL != nil).image
        else { return nil }
        return Self.footprint(of: picture, in: area)
    }

    /// The picture centred in the image's area.
    private static func footprint(of picture: CellBuffer, in area: (x: Int, y: Int, box: CellSize))
        -> PictureFootprint
    {
        PictureFootprint(x: area.x + (area.box.columns - picture.width) / 2,
                         y: area.y + (area.box.rows - picture.height) / 2,
                         columns: picture.width, rows: picture.height)
    }

    /// Draws the pane into the list area, its text scrolled as the pane's `textScroll` says.
    func draw(into frame: inout CellBuffer, area: ScreenArea) {
        let (width, height) = (area.width, area.height)
        var buffer = CellBuffer(width: width, height: height)
        let geometry = DetailPane.geometry(width: width, height: height, hasImage: pane.imageURL != nil)
        if let (x, y, box) = geometry.image {
            switch pane.image {
            case .loaded(let picture):
                let footprint = Self.footprint(of: picture, in: (x, y, box))
                buffer.draw(picture, x: footprint.x, y: footprint.y)
            case .loading:
                buffer.put("\(Spinner.frame(tick)) loading image…", x: x + 1, y: y + box.rows / 2,
                           style: theme.subtitle, maxWidth: box.columns - 1)
            case .failed(let reason):
                buffer.put((TerminalText.unicodeAvailable ? "✗ " : "x ") + "image failed", x: x + 1,
                           y: y + box.rows / 2, style: theme.error, maxWidth: box.columns - 1)
                buffer.put(reason, x: x + 1, y: y + box.rows / 2 + 1, style: theme.subtitle, maxWidth: box.columns - 1)
            case .none, .lookupFailed:
                break
            }
        }
        buffer.drawScrolled(text ?? scrolledText(width: width, height: height), scroll: pane.textScroll, theme: theme)
        frame.draw(buffer, x: area.x, y: area.y)
    }
}
