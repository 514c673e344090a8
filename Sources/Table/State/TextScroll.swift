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

