import Cells

/// Draws the help (`?`): the key bindings in a box over the screen, scrolled when taller than the screen.
struct HelpView {
    /// The key bindings, as the help lists them.
    static let lines: [(keys: String, action: String)] = [
        ("↑ ↓  j k", "move one row"),
        ("PgDn Space  PgUp b", "move one screen"),
        ("Ctrl-D  Ctrl-U", "move half a screen"),
        ("Home g  End G", "first row, last row"),
        ("Enter", "open the detail pane (on a failed page: why it failed)"),
        ("Esc q Backspace", "close the detail pane"),
        ("/", "filter titles as you type (Esc clears)"),
        ("r", "retry the selected row's image, or the failed page"),
        ("d (detail pane)", "delete the image from the caches; r fetches it again"),
        ("P", "prefetch every loaded row's thumbnail (Esc cancels)"),
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

    /// Draws the box, scrolled by `scroll`, and records in `scroll` how much of it shows (see `TextScroll.fit`).
    func draw(into frame: inout CellBuffer, scroll: inout TextScroll) {
        let keyWidth = Self.lines.map { $0.keys.displayWidth }.max() ?? 0
        let actionWidth = Self.lines.map { $0.action.displayWidth }.max() ?? 0
        let width = min(frame.width - 2, keyWidth + 3 + actionWidth + 4)
        let lines = Self.text(width: width)
        let height = min(frame.height - 2, lines.count + 4)
        guard width > 10, height > 3 else { return }
        let x0 = (frame.width - width) / 2, y0 = (frame.height - height) / 2
        let boxStyle = theme.footer
        frame.fill(x: x0, y: y0, width: width, height: height, with: Cell(" ", style: boxStyle))
        frame.put(" Keys ", x: x0 + 2, y: y0, style: boxStyle.merging(CellStyle(attributes: .bold)))
        // Rows 2 to height - 2 hold the lines; the last row says how to scroll and close.
        let rows = height - 3
        scroll.fit(lineCount: lines.count, height: rows)
        for (i, line) in lines.dropFirst(scroll.top).prefix(rows).enumerated() {
            frame.put(line.keys, x: x0 + 2, y: y0 + 2 + i, style: boxStyle.merging(theme.label), maxWidth: width - 4)
            frame.put(line.action, x: x0 + 2 + keyWidth + 3, y: y0 + 2 + i, style: boxStyle,
                      maxWidth: max(0, width - keyWidth - 7))
        }
        let hint = scroll.marker.map { "\($0) · j/k PgDn scroll · other keys close" } ?? "any key closes"
        let shown = TextWrap.truncate(hint, width: width - 4)
        frame.put(shown, x: x0 + width - 2 - shown.displayWidth, y: y0 + height - 1, style: boxStyle)
    }
}
