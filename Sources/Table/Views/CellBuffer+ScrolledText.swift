import Cells

/// A text that scrolls in a box (the detail pane's, the failure pane's): its lines, each with its role, and where the
/// box is. The view that draws it computes it, and `update()` fits the text's `TextScroll` to it, so both use one
/// layout.
struct ScrolledText {
    var lines: [(String, CellStyle.Role)]
    var x: Int, y: Int, width: Int, height: Int

    /// Whether the box's last line says which lines show ("lines 1-4 of 21"): when the text does not fit and the box
    /// has a line to spare. The marker then has a line of its own, so it never covers the text.
    var hasMarkerLine: Bool { lines.count > height && height >= 2 }

    /// The lines of the box that show text: all of them, less the marker's.
    var textHeight: Int { hasMarkerLine ? height - 1 : height }
}

extension TextScroll {
    /// Records how much of `text` its box shows (see `fit(lineCount:height:)`).
    mutating func fit(_ text: ScrolledText) {
        fit(lineCount: text.lines.count, height: text.textHeight)
    }
}

extension CellBuffer {
    /// Draws the lines of a scrolled text that show in its box, each styled by its role, and which lines show on the
    /// box's last line, at its right, when not all do. `scroll` is fitted to the text for this frame only, not stored.
    mutating func drawScrolled(_ scrolled: ScrolledText, scroll: TextScroll, theme: Theme) {
        let (x, y, width) = (scrolled.x, scrolled.y, scrolled.width)
        let height = scrolled.textHeight
        let scroll = scroll.fitted(lineCount: scrolled.lines.count, height: height)
        for (i, (text, role)) in scrolled.lines.dropFirst(scroll.top).prefix(height).enumerated() {
            switch role {
            case .title: put(text, x: x, y: y + i, style: theme.title, maxWidth: width)
            case .subtitle: put(text, x: x, y: y + i, style: theme.subtitle, maxWidth: width)
            case .error: put(text, x: x, y: y + i, style: theme.error, maxWidth: width)
            case .plain: put(text, x: x, y: y + i, maxWidth: width)
            case .labelled(let labelLength):
                let label = String(text.prefix(labelLength))
                let used = put(label, x: x, y: y + i, style: theme.label, maxWidth: width)
                put(String(text.dropFirst(labelLength)), x: x + used, y: y + i, maxWidth: width - used)
            }
        }
        if scrolled.hasMarkerLine, let marker = scroll.marker(width: width) {
            put(marker, x: x + width - marker.displayWidth, y: y + height, style: theme.attribution)
        }
    }
}

extension CellStyle {
    /// What a line of a scrolled text is (the detail pane, the failure's pane), for its style.
    enum Role {
        case title, subtitle, plain, error
        /// A "Label: value" line whose first `n` characters are the label.
        case labelled(Int)
    }
}
