import Foundation
import Pixels
import TestSupport
import Testing

/// Sixel thumbnails in the list and the grid of a real xterm (`-ti vt340`): after each key settles, every picture on
/// the screen looks like one of the folder's pictures, each another, in the folder's order, from a cell's corner, and nothing else on the screen is a picture (`WindowRun.waitForPictures`); quitting leaves none.
///
/// Each key is followed by a wait for what it visibly changes (the first picture, a picture's size, the window),
/// so a screen from before the key never passes for the one after.
@Suite(.serialized, .enabled(if: XtermSession.available, "xterm and Xvfb are not installed (scripts/setup)"),
       .enabled(if: TerminalTTY.canType, "the kernel refuses TIOCSTI, which types into the xterm"))
struct XtermListGridEndToEndTests {
    let pictures: XtermPictures
    let sources: [(name: String, bitmap: Bitmap)]

    init() throws {
        pictures = try XtermPictures(crops: true)
        sources = try pictures.all(maxSide: 200)
    }

    @Test func inTheListEverySlotShowsItsOwnPictureAfterEachKeyAndNoneIsLeftBehind() throws {
        try scenario(layout: "list")
    }

    @Test
    func inTheGridEverySlotShowsItsOwnPictureAfterEachKeyAndNoneIsLeftBehind() throws {
        try scenario(layout: "grid")
    }

    /// `browse --layout layout` at 100x30: j and k, PgDn, PgUp, a zoom out and in, a resize to 80x24, Enter, Esc
    /// and q, each checked once it shows.
    func scenario(layout: String) throws {
        let run = try WindowRun(browsing: pictures.folder, columns: 100, rows: 30, arguments: ["--layout", layout])
        defer { run.close() }
        let names = pictures.names
        let first = try run.waitForPictures("\(layout): the first screen", sources, minimum: 2) {
            $0[0].name == names[0]
        }
        // j and k, then a page down: a later screen of pictures (the keys are read in order, so j and k are done
        // too). Pages move by Ctrl-F and Ctrl-B, PgDn's and PgUp's own bindings: TIOCSTI types a byte at a time, and
        // on a loaded machine the test can be held up between the bytes of `ESC [ 6 ~` for longer than the
        // program's escape delay (25 ms), which then reads a lone Esc (seen once: the PgUp never came). The
        // escape sequences themselves are typed whole by the tmux and pty tests.
        try run.tty.type("jk")
        try run.tty.type("\u{06}")
        let paged = try run.waitForPictures("\(layout): PgDn", sources) { $0[0].name != names[0] }
        #expect(paged.count >= 1, "\(paged)")
        // PgUp: the first screen again.
        try run.tty.type("\u{02}")
        _ = try run.waitForPictures("\(layout): PgUp", sources, minimum: 2) { $0[0].name == names[0] }
        // A zoom out: smaller pictures, the first item's still first; and in again (the first screen's are as large
        // as the list lets them be). The zoom sends every picture again, each when its own is encoded: a screen on
        // which a later cell's smaller picture has arrived and the first's not yet is on the way, not the answer
        // (seen in a clean-clone run: p02 to p04 drawn small and p01's cell between pictures), so the wait is for
        // the first picture too.
        try run.tty.type("-")
        let zoomed = try run.waitForPictures("\(layout): zoomed out", sources, minimum: 2) {
            ($0[0].drawn.width < first[0].drawn.width || $0[0].drawn.height < first[0].drawn.height)
                && $0[0].name == names[0]
        }
        try run.tty.type("+")
        _ = try run.waitForPictures("\(layout): zoomed in", sources, minimum: 2) {
            ($0[0].drawn.width > zoomed[0].drawn.width || $0[0].drawn.height > zoomed[0].drawn.height)
                && $0[0].name == names[0]
        }
        // A resize to 80x24: the window shrinks (the screen beyond it is the root window's black) and the pictures
        // are drawn again for the new size.
        try run.resize(columns: 80, rows: 24)
        let beyond = XtermSession.cells.rect(column: 82, row: 0, columns: 10, rows: 1)
        _ = try run.screen.waitForScreen("\(layout): the window at 80x24") { $0.isFilled(beyond, with: WindowRun.black) }
        _ = try run.waitForPictures("\(layout): at 80x24", sources, minimum: 1)
        // Enter: the pane's one picture, larger than any thumbnail; Esc: the thumbnails again.
        try run.tty.type("\r")
        let pane = try run.waitForPictures("\(layout): the pane", sources) {
            $0.count == 1 && $0[0].drawn.width > first.map(\.drawn.width).max()!
        }
        #expect(pane.count == 1, "\(pane)")
        try run.tty.type("\u{1B}")
        _ = try run.waitForPictures("\(layout): back from the pane", sources, minimum: 1) {
            $0.allSatisfy { $0.drawn.width < pane[0].drawn.width }
        }
        // q quits: the screen the program leaves has no picture pixels.
        try run.tty.type("q")
        #expect(try run.program.waitForExit() == 0)
        #expect(try run.waitForCheck("\(layout): no picture after quitting", []).1.ghostPixels == 0)
    }
}
