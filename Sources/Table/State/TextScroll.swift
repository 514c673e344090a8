import Cells

/// Where a text taller than its box stands: the first line shown, kept within the text as `update()` last laid it out.
///
/// The detail pane, the page failure pane and the help overlay scroll with it. `update()` records the text's length
/// and the box's height (`fit`), computed by the view that draws it; keys scroll within them. A frame draws a fitted
/// copy (`fitted`) and stores nothing.
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
        self = fitted(lineCount: lineCount, height: height)
    }

    /// This scroll fitted to a text's length and its box's height, for a frame to draw from without storing it.
    func fitted(lineCount: Int, height: Int) -> TextScroll {
        var fitted = self
        fitted.lineCount = lineCount
        fitted.height = max(1, height)
        fitted.top = min(top, fitted.maxTop)
        return fitted
    }

    /// Whether some of the text is out of the box, so that there is something to scroll.
    public var isCut: Bool { lineCount > height }

    /// Lines a page key moves: the box's height less one line kept for context.
    public var page: Int { max(1, height - 1) }

    /// Which lines show, such as "lines 3-10 of 14", when the text does not fit.
    var marker: String? {
        isCut ? "lines \(top + 1)-\(min(lineCount, top + height)) of \(lineCount)" : nil
    }

    /// Which lines show, in the longest form that fits `width` ("lines 3-10 of 14", "3-10/14"), cut with `…` when
    /// none does; nil when the whole text shows.
    func marker(width: Int) -> String? {
        guard let marker else { return nil }
        let short = "\(top + 1)-\(min(lineCount, top + height))/\(lineCount)"
        return [marker, short].first { $0.displayWidth <= width } ?? TextWrap.truncate(short, width: width)
    }

    private var maxTop: Int { max(0, lineCount - height) }
}

