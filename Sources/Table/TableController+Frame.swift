import Cells
import Items

extension TableController {
    /// Composes the whole screen into a cell buffer: header, rows (or the detail pane), footer, status line, help.
    /// It reads state and writes cells, nothing else: `update()` starts the loads first. Its cost depends on the rows
    /// on screen, not on the rows loaded.
    public func frame() -> CellBuffer {
        var frame = CellBuffer(width: size.columns, height: size.rows)
        let theme = configuration.theme
        let listTop = size.rows >= 4 ? 1 : 0
        let body: CellBuffer
        if let detail {
            body = detail.compose(width: size.columns, height: listHeight, theme: theme, tick: tick)
        } else if let pageFailure {
            body = pageFailure.compose(width: size.columns, height: listHeight, theme: theme)
        } else {
            body = composeList()
        }
        frame.draw(body, x: 0, y: listTop)
        if size.rows >= 4 {
            drawHeader(into: &frame)
            frame.fill(x: 0, y: size.rows - 2, width: size.columns, height: 1, with: Cell(" ", style: theme.footer))
            frame.put(TextWrap.truncate(" " + source.attribution, width: size.columns), x: 0, y: size.rows - 2,
                      style: theme.footer)
        }
        if let progress = batchProgress {
            drawBatchProgress(progress, into: &frame, y: size.rows - 1)
        } else {
            drawStatusLine(into: &frame, y: size.rows - 1)
        }
        if showingReuseOverlay { drawReuseOverlay(into: &frame) }
        if showingHelp { drawHelp(into: &frame) }
        return frame
    }

    /// The list area alone: the rows on screen, each with its thumbnail block and text.
    func composeList() -> CellBuffer {
        var list = CellBuffer(width: size.columns, height: listHeight)
        if itemCount == 0 && !filter.isEmpty {
            list.put("No titles match \"\(filter)\". Esc clears the filter.", x: 2, y: 1,
                     style: configuration.theme.subtitle, maxWidth: size.columns - 3)
        }
        var y = 0
        for row in visibleRows {
            if let index = itemIndex(forRow: row) {
                drawItemRow(index, at: y, selected: row == viewport.selection, into: &list)
            } else {
                drawStatusRow(at: y, selected: row == viewport.selection, into: &list)
            }
            y += rowHeight(row)
        }
        return list
    }

    private func drawItemRow(_ index: Int, at y: Int, selected: Bool, into list: inout CellBuffer) {
        let theme = configuration.theme
        let item = items[index]
        let text = layout.textLines(for: item)
        let contentHeight = max(layout.thumbnail?.rows ?? 0, text.lineCount)
        if selected {
            list.restyle(x: layout.textColumn - 1, y: y, width: size.columns, height: contentHeight) {
                $0 = $0.merging(theme.selection)
            }
            for line in 0..<contentHeight {
                list.put(TerminalText.unicodeAvailable ? "▌" : ">", x: 0, y: y + line, style: theme.selectionMarker)
            }
        }
        if let box = layout.thumbnail {
            drawThumbnail(pool.slot(forItem: index)?.thumbnail ?? .loading, box: box, x: 2, y: y, into: &list)
        }
        let x = layout.textColumn
        var line = y
        let merge = { (style: CellStyle) in selected ? style.merging(theme.selection) : style }
        for title in text.title {
            list.put(title, x: x, y: line, style: merge(theme.title), maxWidth: layout.textWidth)
            line += 1
        }
        if let subtitle = text.subtitle {
            list.put(subtitle, x: x, y: line, style: merge(theme.subtitle), maxWidth: layout.textWidth)
            line += 1
        }
        if let attribution = text.attribution {
            list.put(attribution, x: x, y: line, style: merge(theme.attribution), maxWidth: layout.textWidth)
        }
    }

    /// Draws a thumbnail block: the picture centred in it, or a placeholder (spinner, failure glyph, no image).
    func drawThumbnail(_ state: ThumbnailState, box: CellSize, x: Int, y: Int, into buffer: inout CellBuffer) {
        let theme = configuration.theme
        let unicode = TerminalText.unicodeAvailable
        switch state {
        case .loaded(let picture):
            buffer.draw(picture, x: x + (box.columns - picture.width) / 2, y: y + (box.rows - picture.height) / 2)
        case .loading:
            buffer.fill(x: x, y: y, width: box.columns, height: box.rows, with: Cell(" ", style: theme.placeholder))
            let frames = unicode ? Self.spinnerFrames : Self.asciiSpinnerFrames
            buffer.put(String(frames[tick % frames.count]), x: x + box.columns / 2, y: y + box.rows / 2,
                       style: theme.placeholder)
        case .failed:
            buffer.fill(x: x, y: y, width: box.columns, height: box.rows, with: Cell(" ", style: theme.placeholder))
            buffer.put(unicode ? "✗" : "x", x: x + box.columns / 2, y: y + box.rows / 2 - (box.rows > 2 ? 1 : 0),
                       style: theme.failure)
            if box.rows > 2 {
                let label = box.columns >= 8 ? "failed" : "!"
                buffer.put(label, x: x + (box.columns - label.count) / 2, y: y + box.rows / 2 + 1,
                           style: theme.placeholder)
            }
        case .none:
            buffer.fill(x: x, y: y, width: box.columns, height: box.rows, with: Cell(" ", style: theme.placeholder))
            let label = box.columns >= 10 ? "no image" : "-"
            buffer.put(label, x: x + (box.columns - label.count) / 2, y: y + box.rows / 2, style: theme.placeholder)
        }
    }

    static let spinnerFrames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    static let asciiSpinnerFrames: [Character] = ["|", "/", "-", "\\"]

    var spinner: Character {
        let frames = TerminalText.unicodeAvailable ? Self.spinnerFrames : Self.asciiSpinnerFrames
        return frames[tick % frames.count]
    }

    private func drawStatusRow(at y: Int, selected: Bool, into list: inout CellBuffer) {
        let theme = configuration.theme
        let x = 2
        if selected {
            list.put(TerminalText.unicodeAvailable ? "▌" : ">", x: 0, y: y, style: theme.selectionMarker)
        }
        let width = size.columns - x - 1
        switch listStatus {
        case .loading:
            // Before the first rows there is nothing to load more of.
            list.put("\(spinner) \(items.isEmpty ? "loading…" : "loading more…")", x: x, y: y, style: theme.subtitle,
                     maxWidth: width)
        case .failed(let message, _):
            // One line of the reason; Enter shows it whole, and the status line says so and how to retry.
            let text = "\(TerminalText.unicodeAvailable ? "⚠" : "!") "
                + "\(Self.failureHeading(firstPage: items.isEmpty)): \(Self.failureReason(message))"
            list.put(TextWrap.truncate(text, width: width), x: x, y: y, style: theme.error, maxWidth: width)
        case .end:
            let text = items.isEmpty ? "— \(pageNotes.last ?? "the list is empty") —"
                : "— end of the list: \(items.count) item\(items.count == 1 ? "" : "s") —"
            list.put(TextWrap.truncate(text, width: width), x: x, y: y, style: theme.attribution, maxWidth: width)
        case .more:
            break
        }
    }

    private func drawHeader(into frame: inout CellBuffer) {
        let theme = configuration.theme
        frame.fill(x: 0, y: 0, width: size.columns, height: 1, with: Cell(" ", style: theme.header))
        var position: String
        if let detail {
            position = "item \(detail.itemIndex + 1) of \(items.count)"
        } else if pageFailure != nil {
            position = "page failed"
        } else if itemCount == 0 {
            position = hasStatusRow && listStatus == .loading ? "loading…" : "no rows"
        } else {
            let row = min(viewport.selection + 1, itemCount)
            position = filtered == nil
                ? "row \(row) of \(items.count) loaded"
                : "row \(row) of \(itemCount) matching, \(items.count) loaded"
        }
        let name = " ThumbTable · " + source.name
        // A narrow screen gets the short form, so the program's name still shows.
        if name.displayWidth + position.displayWidth + 2 > size.columns, itemCount > 0, detail == nil,
           pageFailure == nil {
            position = "\(min(viewport.selection + 1, itemCount))/\(itemCount)"
        }
        let positionWidth = position.displayWidth
        frame.put(TextWrap.truncate(name, width: max(0, size.columns - positionWidth - 2)), x: 0, y: 0,
                  style: theme.header)
        if positionWidth + 1 <= size.columns {
            frame.put(position, x: size.columns - positionWidth - 1, y: 0, style: theme.header)
        }
    }

    private func drawStatusLine(into frame: inout CellBuffer, y: Int) {
        let theme = configuration.theme
        let text: String
        if isEditingFilter {
            text = "/" + filter + (TerminalText.unicodeAvailable ? "▏" : "_") + "   Enter keeps · Esc clears"
        } else if detail != nil {
            text = "Esc back · j/k scroll · r reload image · d delete from cache · q back"
        } else if pageFailure != nil {
            text = "r or Enter retries · Esc back · j/k scroll"
        } else if let status {
            text = status
        } else if !filter.isEmpty {
            text = "filter: \(filter) · Esc clears · / edits · ? help"
        } else if case .failed = listStatus {
            text = selectedItem == nil
                ? "Enter shows why the page failed · r retries · ? help · q quit"
                : "A page failed to load: G goes to its row · ? help · q quit"
        } else {
            text = "j/k move · Enter open · / filter · r retry image · ? help · q quit"
        }
        frame.put(TextWrap.truncate(" " + text, width: size.columns), x: 0, y: y, style: theme.status)
    }

    /// The key bindings, shown by `?`.
    public static let helpLines: [(keys: String, action: String)] = [
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

    /// The help's lines for a box of `width` columns: each action wrapped beside its keys.
    func helpText(width: Int) -> [(keys: String, action: String)] {
        let keyWidth = Self.helpLines.map { $0.keys.displayWidth }.max() ?? 0
        let actionWidth = max(8, width - keyWidth - 7)
        return Self.helpLines.flatMap { line in
            TextWrap.lines(line.action, width: actionWidth).enumerated().map { i, part in
                (i == 0 ? line.keys.padding(toDisplayWidth: keyWidth) : "", part)
            }
        }
    }

    /// The help box over the screen, scrolled by `helpScroll` when it is taller than the screen.
    private func drawHelp(into frame: inout CellBuffer) {
        let theme = configuration.theme
        let keyWidth = Self.helpLines.map { $0.keys.displayWidth }.max() ?? 0
        let actionWidth = Self.helpLines.map { $0.action.displayWidth }.max() ?? 0
        let width = min(size.columns - 2, keyWidth + 3 + actionWidth + 4)
        let lines = helpText(width: width)
        let height = min(size.rows - 2, lines.count + 4)
        guard width > 10, height > 3 else { return }
        let x0 = (size.columns - width) / 2, y0 = (size.rows - height) / 2
        let boxStyle = theme.footer
        frame.fill(x: x0, y: y0, width: width, height: height, with: Cell(" ", style: boxStyle))
        frame.put(" Keys ", x: x0 + 2, y: y0, style: boxStyle.merging(CellStyle(attributes: .bold)))
        // Rows 2 to height - 2 hold the lines; the last row says how to scroll and close.
        let rows = height - 3
        helpScroll.fit(lineCount: lines.count, height: rows)
        for (i, line) in lines.dropFirst(helpScroll.top).prefix(rows).enumerated() {
            frame.put(line.keys, x: x0 + 2, y: y0 + 2 + i, style: boxStyle.merging(theme.label), maxWidth: width - 4)
            frame.put(line.action, x: x0 + 2 + keyWidth + 3, y: y0 + 2 + i, style: boxStyle,
                      maxWidth: max(0, width - keyWidth - 7))
        }
        let hint = helpScroll.marker.map { "\($0) · j/k PgDn scroll · other keys close" } ?? "any key closes"
        let shown = TextWrap.truncate(hint, width: width - 4)
        frame.put(shown, x: x0 + width - 2 - shown.displayWidth, y: y0 + height - 1, style: boxStyle)
    }
}
