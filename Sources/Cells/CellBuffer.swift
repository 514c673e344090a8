/// A rectangle of cells: a whole frame, or a thumbnail to be copied into one.
///
/// Frames are drawn whole into a buffer (immediate mode) and the terminal layer writes only the cells that changed
/// since the previous frame.
public struct CellBuffer: Sendable, Equatable {
    public private(set) var width: Int
    public private(set) var height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int, fill: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: fill, count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        // Inlinable, or each read is a call across modules that copies the cell (its glyph retained and released).
        @inlinable get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Whether (x, y) lies inside the buffer.
    @inlinable public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// Fills a rectangle (clipped to the buffer) with one cell.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, with cell: Cell = .blank) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            let base = row * width
            for col in x0..<x1 { cells[base + col] = cell }
        }
        repairWideEdges(y0: y0, y1: y1, x0: x0, x1: x1)
    }

    /// Writes text on one line starting at (x, y), clipped at `x + maxWidth` and at the buffer's edge.
    ///
    /// The text is made safe first (controls shown as `^X`), so untrusted text can be passed as it is.
    /// A wide character that would straddle the clip edge is replaced by a space.
    /// - Returns: the number of columns written.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: CellStyle = .plain, maxWidth: Int? = nil) -> Int {
        guard y >= 0, y < height else { return 0 }
        let limit = min(width, maxWidth.map { x + max(0, $0) } ?? width)
        var col = x
        for character in TerminalText.visible(text) {
            let w = character.displayWidth
            if w == 0 { continue }
            if col + w > limit {
                if col < limit, col >= 0 { self[col, y] = Cell(" ", style: style); col += 1 }
                break
            }
            if col >= 0 {
                clearWideNeighbours(x: col, y: y, width: w)
                self[col, y] = Cell(character, style: style)
                if w == 2 { self[col + 1, y] = Cell(Cell.continuation.glyph, style: style) }
            }
            col += w
        }
        return max(0, col - x)
    }

    /// Copies another buffer into this one with its top-left corner at (x, y), clipped to both.
    public mutating func draw(_ other: CellBuffer, x: Int, y: Int) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + other.width), y1 = min(height, y + other.height)
        guard x0 < x1, y0 < y1 else { return }
        // A row at a time through pointers: a cell at a time through the arrays' subscripts checked each index and
        // the array's uniqueness (1.6 M instructions of a one-shot pick's 31.7 M, copying the list into the frame).
        let width = width
        cells.withUnsafeMutableBufferPointer { target in
            other.cells.withUnsafeBufferPointer { source in
                guard let to = target.baseAddress, let from = source.baseAddress else { return }
                for row in y0..<y1 {
                    let src = (row - y) * other.width - x, dst = row * width
                    (to + dst + x0).update(from: from + src + x0, count: x1 - x0)
                }
            }
        }
        repairWideEdges(y0: y0, y1: y1, x0: x0, x1: x1)
    }

    /// Applies a style change to every cell of a rectangle (used for the selection highlight).
    public mutating func restyle(x: Int, y: Int, width w: Int, height h: Int, _ change: (inout CellStyle) -> Void) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            for col in x0..<x1 { change(&cells[row * width + col].style) }
        }
    }

    /// The text of each line, wide characters once, trailing spaces kept: what a test compares against.
    public var lines: [String] {
        (0..<height).map { line($0) }
    }

    /// The text of one line.
    public func line(_ y: Int) -> String {
        var s = ""
        s.reserveCapacity(width)
        for x in 0..<width {
            let c = cells[y * width + x]
            if !c.isContinuation { s.append(c.glyph) }
        }
        return s
    }

    // A wide character cut in half by a write leaves an orphan half; turn orphans into spaces so every
    // column keeps its place.
    private mutating func clearWideNeighbours(x: Int, y: Int, width w: Int) {
        let base = y * width
        if cells[base + x].isContinuation, x > 0 { cells[base + x - 1].glyph = " " }
        let after = x + w
        if after < width, cells[base + after].isContinuation { cells[base + after].glyph = " " }
    }

    private mutating func repairWideEdges(y0: Int, y1: Int, x0: Int, x1: Int) {
        for row in y0..<y1 {
            let base = row * width
            if cells[base + x0].isContinuation {
                if x0 > 0, !cells[base + x0 - 1].isContinuation, cells[base + x0 - 1].glyph.displayWidth == 2 {
                    cells[base + x0 - 1].glyph = " "
                }
                cells[base + x0].glyph = " "
            }
            let last = x1 - 1
            if !cells[base + last].isContinuation, cells[base + last].glyph.displayWidth == 2,
               last + 1 >= width || !cells[base + last + 1].isContinuation {
                cells[base + last].glyph = " "
            }
            if x1 < width, cells[base + x1].isContinuation,
               cells[base + x1 - 1].glyph.displayWidth != 2 {
                cells[base + x1].glyph = " "
            }
        }
    }
}
