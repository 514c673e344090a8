import Cells

/// Draws the help (`?`): the key bindings in a box over the screen, scrolled when taller than the screen.
struct HelpView {
    /// The key bindings, as the help lists them.
    static let lines: [(keys: String, action: String)] = [
        ("↑ ↓  j k", "move one row (in the grid, one line of pictures)"),
        ("← →  h l", "in the grid: move one picture across"),
        ("PgDn Space  PgUp b", "move one screen"),
        ("Ctrl-D  Ctrl-U", "move half a screen"),
        ("Home g  End G", "first row; last row, following new pages to the end (any key stops)"),
        ("Enter  → l", "open the detail pane (on a failed page: why it failed); → l only in the list"),
        ("Esc q Backspace", "close the detail pane"),
        ("n p (detail pane)", "next or previous item (↓ ↑ too when the text fits)"),
        ("w", "save the original image into the save folder (--save-dir)"),
        ("W", "save the picture as shown: .ans with colours, .txt without"),
        ("o", "open the item's page, else its image, in the browser (http(s) only)"),
        ("y", "copy that URL to the clipboard (OSC 52)"),
        ("/", "filter rows by title, subtitle and attribution as you type (Esc clears)"),
        ("Enter (last row)", "when the filter stopped reading pages: read more"),
        ("+ -", "bigger or smaller thumbnails (in the grid: fewer or more across)"),
        ("r", "retry the selected row's image, or the failed page"),
        ("d", "delete the image from the caches; r fetches it again"),
        ("P", "prefetch every loaded row's thumbnail (Esc cancels)"),
        ("v", "switch between the list and the grid"),
        ("s", "show or hide the slots and counters"),
        ("mouse", "wheel scrolls, click selects, double click opens"),
        ("?", "show or hide this help"),
        ("Ctrl-Z", "suspend to the shell (fg comes back)"),
        ("q  Ctrl-C", "quit"),
    ]

    var theme: Theme

    /// The help's lines for a box of `width` columns: each action wrapped beside its keys.
    static func text(width: Int) -> [(keys: String, action: String)] {
        let keyWidth = lines.map { $0.keys.displayWidth }.max() ?? 0
        let actionWidth = max(8, width - keyWidth - 7)
        return lines.flatMap { line in
            TextWrap.lines(line.action, width: actionWidth).enumerated().map { i, part in
                (i == 0 ? line.keys.padding(toDisplayWidth: keyWidth) : "", part)
            }
        }
    }

    /// Where the help's box goes on a screen and the lines it holds.
    struct Box {
        var x: Int, y: Int, width: Int, height: Int
        var keyWidth: Int
        var lines: [(keys: String, action: String)]
        /// Rows 2 to height - 2 hold the lines; the last row says how to scroll and close.
        var rows: Int { height - 3 }
    }

    /// The box on a screen of this size, or nil when the screen is too small for one. The frame draws it and
    /// `update()` fits the help's `TextScroll` to it: one layout for both.
    static func box(columns: Int, rows: Int) -> Box? {
        let keyWidth = lines.map { $0.keys.displayWidth }.max() ?? 0
        let actionWidth = lines.map { $0.action.displayWidth }.max() ?? 0
        let width = min(columns - 2, keyWidth + 3 + actionWidth + 4)
        let wrapped = text(width: width)
        let height = min(rows - 2, wrapped.count + 4)
        guard width > 10, height > 3 else { return nil }
        return Box(x: (columns - width) / 2, y: (rows - height) / 2, width: width, height: height, keyWidth: keyWidth,
                   lines: wrapped)
    }

    /// Draws the box, its lines scrolled as `scroll` says (fitted to the box for this frame only, not stored).
    func draw(into frame: inout CellBuffer, scroll: TextScroll) {
        guard let box = Self.box(columns: frame.width, rows: frame.height) else { return }
        let (x0, y0, width, height, keyWidth) = (box.x, box.y, box.width, box.height, box.keyWidth)
        let boxStyle = theme.footer
        frame.fill(x: x0, y: y0, width: width, height: height, with: Cell(" ", style: boxStyle))
        frame.put(" Keys ", x: x0 + 2, y: y0, style: boxStyle.merging(CellStyle(attributes: .bold)))
        let scroll = scroll.fitted(lineCount: box.lines.count, height: box.rows)
        for (i, line) in box.lines.dropFirst(scroll.top).prefix(box.rows).enumerated() {
            frame.put(line.keys, x: x0 + 2, y: y0 + 2 + i, style: boxStyle.merging(theme.label), maxWidth: width - 4)
            frame.put(line.action, x: x0 + 2 + keyWidth + 3, y: y0 + 2 + i, style: boxStyle,
                      maxWidth: max(0, width - keyWidth - 7))
        }
        let hint = scroll.marker.map { "\($0) · j/k PgDn scroll · other keys close" } ?? "any key closes"
        let shown = TextWrap.truncate(hint, width: width - 4)
        frame.put(shown, x: x0 + width - 2 - shown.displayWidth, y: y0 + height - 1, style: boxStyle)
    }
}
