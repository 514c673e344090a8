import Cells

extension CellBuffer {
    /// Draws the lines of a scrolled text that show in a box, each styled by its role, and which lines show at the
    /// buffer's top right when not all do. Records the text's length in `scroll` (see `TextScroll.fit`).
    mutating func drawScrolled(_ lines: [(String, CellStyle.Role)], x: Int, y: Int, width: Int, height: Int,
                               scroll: inout TextScroll, theme: Theme) {
        scroll.fit(lineCount: lines.count, height: height)
        for (i, (text, role)) in lines.dropFirst(scroll.top).prefix(height).enumerated() {
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
        if let marker = scroll.marker {
            put(marker, x: self.width - marker.count - 1, y: 0, style: theme.attribution)
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
