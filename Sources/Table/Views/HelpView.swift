import Cells

/// A line of the help: the keys as written and what they do (the app's key table gives them).
public typealias HelpLine = (keys: String, action: String)

/// Draws the help (`?`): the key bindings in a box over the screen, scrolled when taller than the screen.
struct HelpView {
    typealias Line = HelpLine

    var lines: [Line]
    var theme: Theme

    /// The help's lines for a box of `width` columns: each action wrapped beside its keys.
    static func text(_ lines: [Line], width: Int) -> [Line] {
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
        var lines: [Line]
        /// Rows 2 to height - 2 hold the lines; the last row says how to scroll and close.
        var rows: Int { height - 3 }
    }

    /// The box on a screen of this size, or nil when the screen is too small for one. The frame draws it and
    /// `update()` fits the help's `TextScroll` to it: one layout for both.
    static func box(_ lines: [Line], columns: Int, rows: Int) -> Box? {
        let keyWidth = lines.map { $0.keys.displayWidth }.max() ?? 0
        let actionWidth = lines.map { $0.action.displayWidth }.max() ?? 0
        let width = min(columns - 2, keyWidth + 3 + actionWidth + 4)
        let wrapped = text(lines, width: width)
        let height = min(rows - 2, wrapped.count + 4)
        guard width > 10, height > 3 else { return nil }
        return Box(x: (columns - width) / 2, y: (rows - height) / 2, width: width, height: height, keyWidth: keyWidth,
                   lines: wrapped)
    }

    /// Draws the box, its lines scrolled as `scroll` says (fitted to the box for this frame only, not stored).
    func draw(into frame: inout CellBuffer, scroll: TextScroll) {
        guard let box = Self.box(lines, columns: frame.width, rows: frame.height) else { return }
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
        // The hint shortens before it is cut: the marker last, in its own short form when need be.
        let room = width - 4
        let hints = scroll.marker.map { ["\($0) · j/k PgDn scroll · other keys close", "\($0) · other keys close", $0] }
            ?? ["any key closes"]
        let shown = hints.first { $0.displayWidth <= room }
            ?? scroll.marker(width: room) ?? TextWrap.truncate(hints.last ?? "", width: room)
        frame.put(shown, x: x0 + width - 2 - shown.displayWidth, y: y0 + height - 1, style: boxStyle)
    }
}
