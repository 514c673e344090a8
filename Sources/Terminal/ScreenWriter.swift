import Cells

/// What the screen writer draws on: curses' window and colour-pair table (`CursesScreen`), or a test's record of the
/// calls.
@MainActor
protocol CursesSurface: AnyObject {
    /// Blanks curses' copy of the window, to be written anew.
    func erase()
    /// Puts a glyph with attributes and a colour pair at a cell (as many of its scalars as curses keeps in one).
    func put(_ glyph: Character, attributes: CellAttributes, pair: Int32, x: Int, y: Int)
    /// Defines colour pair `pair`; false when curses refuses.
    func definePair(_ pair: Int32, foreground: Int32, background: Int32) -> Bool
    /// Forgets every colour pair, and has curses repaint the whole screen.
    func resetPairs()
    /// Sends what changed in the window to the terminal.
    func refresh()
}

/// Writes frames: only the cells that differ from what is on screen, each with its colour pair (`ColorPairs`).
@MainActor
final class ScreenWriter {
    private let surface: any CursesSurface
    private var pairs: ColorPairs
    /// The frame last written, to diff the next one against; nil when the whole screen must be written.
    private var onScreen: CellBuffer?

    init(surface: any CursesSurface, pairs: ColorPairs) {
        self.surface = surface
        self.pairs = pairs
    }

    /// Writes `frame` on a screen of `size`: the changed cells, then one refresh.
    func draw(_ frame: CellBuffer, size: Terminal.Size) {
        let previous = onScreen.flatMap { $0.width == frame.width && $0.height == frame.height ? $0 : nil }
        if previous == nil { surface.erase() }
        if !write(frame, over: previous, size: size) {
            // The colour-pair table is full (see `ColorPairs`): every pair is forgotten, numbering starts again at 1
            // and every cell is written again. reset_color_pairs also has curses repaint the whole screen, whose
            // cells carry numbers that will mean other colours. Redefining pairs one by one instead made curses
            // search its copy of the screen for each one: frames of new photos took 200-600 ms instead of 30-90.
            surface.resetPairs()
            pairs.reset()
            surface.erase()
            pairs.overflowing = true
            _ = write(frame, over: nil, size: size)
            pairs.overflowing = false
        }
        surface.refresh()
        onScreen = frame
    }

    /// Forgets what is on screen, so the next draw writes every cell.
    func forget() {
        onScreen = nil
    }

    /// Writes the cells of `frame` that differ from `previous` (when nil, from the blank window `erase()` left);
    /// false, having stopped, when the colour-pair table ran out.
    private func write(_ frame: CellBuffer, over previous: CellBuffer?, size: Terminal.Size) -> Bool {
        let maxX = min(frame.width, size.columns), maxY = min(frame.height, size.rows)
        let surface = self.surface
        guard maxX > 0 else { return true }
        // Whether the cell at (x, y) is as on screen. (A function, not a closure given to `Optional.map`: such a
        // closure is checked to run on the main actor at every call, 360 instructions a cell.)
        func unchanged(_ x: Int, _ y: Int) -> Bool {
            guard let previous else { return false }
            return previous[x, y] == frame[x, y]
        }
        for y in 0..<maxY {
            // Carried to the next x: each cell is compared once.
            var sameHere = unchanged(0, y)
            for x in 0..<maxX {
                let sameNext = x + 1 < maxX ? unchanged(x + 1, y) : true
                defer { sameHere = sameNext }
                let cell = frame[x, y]
                if cell.isContinuation { continue }
                if previous != nil {
                    // A wide character's right half changing redraws it too.
                    if sameHere, sameNext { continue }
                } else if cell == .blank {
                    // `erase()` blanked the window as a plain blank is written (a space, no colour pair, no
                    // attribute): most of a first screen is such cells.
                    continue
                }
                guard let pair = pairs.pair(for: cell.style, define: { surface.definePair($0, foreground: $1,
                                                                                            background: $2) })
                else { return false }
                // The bottom-right cell scrolls some terminals when written; curses handles it with insert mode, but
                // a wide character there cannot fit: a glyph wider than the room left on the line is a space.
                // (No glyph is wider than two columns: only the last column is measured.)
                let glyph: Character = x + 1 >= maxX && cell.glyph.displayWidth > maxX - x ? " " : cell.glyph
                surface.put(glyph, attributes: cell.style.attributes, pair: pair, x: x, y: y)
            }
        }
        return true
    }
}
