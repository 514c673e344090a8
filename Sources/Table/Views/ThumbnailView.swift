import Cells

/// Draws a slot's thumbnail in its box, in the list and the grid alike: the picture centred, or a placeholder
/// (a spinner while loading, the failure glyph, "no image").
struct ThumbnailView {
    var state: ThumbnailState
    var theme: Theme
    var tick: Int

    /// Where a picture of `size` cells starts in a box of `box` cells: centred. The terminal's pictures in pixels
    /// are drawn over exactly these cells (`TableController.screenPictures`).
    static func pictureOffset(of size: CellSize, in box: CellSize) -> (x: Int, y: Int) {
        ((box.columns - size.columns) / 2, (box.rows - size.rows) / 2)
    }

    func draw(box: CellSize, x: Int, y: Int, into buffer: inout CellBuffer) {
        let unicode = TerminalText.unicodeAvailable
        switch state {
        case .loaded(let picture):
            let offset = Self.pictureOffset(of: CellSize(columns: picture.width, rows: picture.height), in: box)
            buffer.draw(picture, x: x + offset.x, y: y + offset.y)
        case .loading:
            buffer.fill(x: x, y: y, width: box.columns, height: box.rows, with: Cell(" ", style: theme.placeholder))
            buffer.put(String(Spinner.frame(tick)), x: x + box.columns / 2, y: y + box.rows / 2,
                       style: theme.placeholder)
        case .lookupFailed:
            // Not a picture that failed to load: no picture was found to load. r looks it up again.
            buffer.fill(x: x, y: y, width: box.columns, height: box.rows, with: Cell(" ", style: theme.placeholder))
            let label = box.columns >= 13 ? "lookup failed" : box.columns >= 6 ? "lookup" : "?"
            let top = y + box.rows / 2 - (box.rows > 2 ? 1 : 0)
            buffer.put(label, x: x + (box.columns - label.count) / 2, y: top, style: theme.failure)
            if box.rows > 2 {
                let hint = box.columns >= 10 ? "r: retry" : "r"
                buffer.put(hint, x: x + (box.columns - hint.count) / 2, y: top + 1, style: theme.placeholder)
            }
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
}
