import Cells

/// Where a text taller than its box stands: the first line shown, kept within the text as it was last drawn.
///
/// The detail pane, the page failure pane and the help overlay scroll with it. Drawing records the text's length
/// and the box's height (`fit`); keys scroll within them.
public struct TextScroll: Sendable, Equatable {
    /// The first line shown.
    public private(set) var top = 0
    private var lineCount = 0
    private var height = 1

    public init() {}

    /// Scrolls by `lines` (negative: up), no further than shows the last line at the bottom.
    public mutating func scroll(by lines: Int) {
        top = min(max(0, top + min(max(lines, -top), maxTop)), maxTop)
    }

    /// Records the text's length and the lines the box shows, as a frame draws them, and keeps `top` within them
    /// (a resize may have made the text shorter or the box taller).
    mutating func fit(lineCount: Int, height: Int) {
        self.lineCount = lineCount
        self.height = max(1, height)
        top = min(top, maxTop)
    }

    /// Whether some of the text is out of the box, so that there is something to scroll.
    public var isCut: Bool { lineCount > height }

    /// Lines a page key moves: the box's height less one line kept for context.
    public var page: Int { max(1, height - 1) }

    /// Which lines show, such as "lines 3-10 of 14", when the text does not fit.
    var marker: String? {
        isCut ? "lines \(top + 1)-\(min(lineCount, top + height)) of \(lineCount)" : nil
    }

    private var maxTop: Int { max(0, lineCount - height) }
}

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
