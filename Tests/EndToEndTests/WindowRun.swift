import Foundation
import Pixels
import TestSupport

/// ThumbTable browsing a folder without colours in a real terminal window under Xvfb (xterm `-ti vt340`, or kitty),
/// with what those tests share: the keys, a resize, and the screen checked until it shows what a test expects.
final class WindowRun {
    enum Terminal {
        case xterm, kitty
    }

    /// The largest difference from its source (`ScreenCheck`) a picture drawn right has. Measured: 0.8-2 for the
    /// demo's photos; 20-40 for another photo there, a missing or a shifted one.
    static let likeness = 10.0
    /// The same for a thumbnail found on the screen (`waitForPictures`): measured 2-6 at 84-186 pixels a side, but
    /// 10.5-12.2 at 36-72 (an 80x24 list), where the sixel's palette and dithering weigh more. Each is also named
    /// after the source it is nearest to, and the names must come in the folder's order.
    static let thumbnailLikeness = 16.0
    static let background = RGBA(r: 0x20, g: 0x40, b: 0x60)
    static let white = RGBA(r: 255, g: 255, b: 255), black = RGBA(r: 0, g: 0, b: 0)
    /// Every colour xterm draws a program's text in when the program uses none (`--color none`), measured: its
    /// background and white foreground, black for the reverse video of the selection, grey for dim text.
    static let xtermText = TextColours([background, white, black, RGBA(r: 170, g: 170, b: 170)])
    /// kitty's: the background, white and black, and their mixtures at the edges of its antialiased glyphs.
    static let kittyText = TextColours([background, white, black])

    let program: TerminalProgram
    let tty: TerminalTTY
    let screen: XvfbScreen
    /// Where the terminal's cells are.
    let geometry: CellGeometry
    /// Every colour the terminal draws the program's text in.
    let text: TextColours
    private(set) var columns: Int, rows: Int
    private let closeTerminal: () -> Void

    /// `thumbtable browse folder --color none` and `arguments` in a `columns` x `rows` window. Graphics are detected
    /// as they would be anywhere: xterm answers sixel in its DA1, kitty its graphics query; both their cell size.
    init(browsing folder: URL, columns: Int, rows: Int, in terminal: Terminal = .xterm, arguments: [String] = [])
        throws
    {
        self.columns = columns
        self.rows = rows
        program = try TerminalProgram(["browse", folder.path, "--color", "none"] + arguments)
        switch terminal {
        case .xterm:
            let xterm = try XtermSession(command: program.command, columns: columns, rows: rows, background: "#204060")
            (screen, geometry, closeTerminal) = (xterm.screen, XtermSession.cells, xterm.close)
            text = Self.xtermText
        case .kitty:
            let kitty = try KittyWindow(command: program.command, columns: columns, rows: rows, background: "#204060")
            closeTerminal = kitty.close
            screen = kitty.screen
            geometry = try kitty.waitForWindow(background: Self.background)
            text = Self.kittyText
        }
        tty = try program.tty()
    }

    func close() {
        closeTerminal()
    }

    /// The terminal's cells, in the screen's pixels.
    var cells: PixelRect { geometry.rect(column: 0, row: 0, columns: columns, rows: rows) }

    /// Waits for the list with its first row selected: the selection's white reaches the screen's right edge on
    /// the row's second line (in the list layout; a pane has text or background there).
    func waitForList() throws {
        let selection = geometry.rect(column: columns - 4, row: 2, columns: 3, rows: 1)
        _ = try screen.waitForScreen("the list with its first row selected") {
            $0.isFilled(selection, with: Self.white)
        }
    }

    /// The first screen on which every picture is like its source and nothing else holds picture pixels, and its
    /// check.
    func waitForCheck(_ what: String, _ pictures: [ExpectedPicture]) throws -> (Bitmap, ScreenCheck) {
        try screen.waitForCheck(what, cells: cells, pictures: pictures, text: text) {
            $0.passes(likeness: Self.likeness)
        }
    }

    /// Asks the terminal to resize its window to `columns` x `rows` (xterm's `CSI 8 ; rows ; columns t`, allowed
    /// by its session's window operations); the program gets SIGWINCH.
    func resize(columns: Int, rows: Int) throws {
        try tty.write("\u{1B}[8;\(rows);\(columns)t")
        self.columns = columns
        self.rows = rows
    }

    /// The first screen whose pictures, found from the screen (`PictureRegion`), are each like a picture of
    /// `sources` (each another one, in the sources' order: the list and the grid show items in order, though a
    /// picture cut by the screen's bottom is left out), start at a cell's corner, number at least `minimum`, and
    /// that `accepts`; the regions, named.
    func waitForPictures(_ what: String, _ sources: [(name: String, bitmap: Bitmap)], minimum: Int = 1,
                         accepts: ([PictureRegion]) -> Bool = { _ in true }) throws -> [PictureRegion]
    {
        var last: [PictureRegion] = []
        _ = try screen.waitForScreen(what, failure: { "pictures: \(last)" }) { shot in
            // In reading order: a grid's row is one band however its pictures are placed up and down in it.
            let regions = PictureRegion.find(in: shot, columns: columns, rows: rows, geometry: geometry, text: text)
                .map { $0.named(from: sources, in: shot) }
                .sorted { a, b in
                    let sameBand = a.cells.y < b.cells.y + b.cells.height && b.cells.y < a.cells.y + a.cells.height
                    return sameBand ? a.cells.x < b.cells.x : a.cells.y < b.cells.y
                }
            last = regions
            let order = regions.compactMap { region in sources.firstIndex { $0.name == region.name } }
            return regions.count >= minimum && regions.allSatisfy { $0.difference < Self.thumbnailLikeness }
                && order.count == regions.count && zip(order, order.dropFirst()).allSatisfy { $1 > $0 }
                && regions.allSatisfy { (($0.drawn.x - geometry.originX) % geometry.cellWidth,
                                         ($0.drawn.y - geometry.originY) % geometry.cellHeight) == (0, 0) }
                && accepts(regions)
        }
        return last
    }
}
