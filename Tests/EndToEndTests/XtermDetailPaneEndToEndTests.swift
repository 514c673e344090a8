import Cells
import Codecs
import Foundation
import Pixels
@testable import Table
import TestSupport
import Testing
import TextArt

/// The detail pane's picture in a real xterm (`-ti vt340`, sixel): after each key the screen is read back from
/// Xvfb and checked (`ScreenCheck`): the picture at the pane's cells looks like its own source, and no pixel outside
/// it is anything but text.
@Suite(.serialized, .enabled(if: XtermSession.available, "xterm and Xvfb are not installed (scripts/setup)"),
       .enabled(if: TerminalTTY.canType, "the kernel refuses TIOCSTI, which types into the xterm"))
struct XtermDetailPaneEndToEndTests {
    let pictures: XtermPictures

    init() async throws {
        pictures = try XtermPictures()
    }

    /// The cells of the pane's picture of `source` on a `columns` x `rows` screen: the pane fills the list area
    /// (below the header, above the status lines), lays its image area out (`DetailPane.geometry`), and centres the
    /// text art fitted there (`TextArtRenderer.fit`); the pixels go over exactly those cells. (On the main actor,
    /// as the pane's layout is.)
    @MainActor static func paneCells(for source: Bitmap, columns: Int, rows: Int,
                                     in geometry: CellGeometry = XtermSession.cells) throws -> PixelRect
    {
        let layout = try #require(DetailPane.geometry(width: columns, height: rows - 3, hasImage: true).image)
        let grid = TextArtRenderer.fit(imageWidth: source.width, imageHeight: source.height, in: layout.box,
                                       cellAspect: TextArtOptions.default.cellAspect)
        return geometry.rect(column: layout.x + (layout.box.columns - grid.columns) / 2,
                                       row: 1 + layout.y + (layout.box.rows - grid.rows) / 2,
                                       columns: grid.columns, rows: grid.rows)
    }

    /// The pane's picture of `name` on a `columns` x `rows` screen, as xterm draws a sixel the program fitted.
    func panePicture(_ name: String, columns: Int, rows: Int) async throws -> ExpectedPicture {
        let source = try pictures.source(name)
        return .fitted(name, source, in: try await Self.paneCells(for: source, columns: columns, rows: rows))
    }

    @Test func enterShowsThePicturesOwnPixelsAndEscLeavesNone() async throws {
        let (columns, rows) = (100, 30)
        let run = try WindowRun(browsing: pictures.folder, columns: columns, rows: rows)
        defer { run.close() }
        try run.waitForList()
        // Enter: the first picture (astronaut), in its cells and nowhere else.
        try run.tty.type("\r")
        let astronaut = try await panePicture("astronaut.png", columns: columns, rows: rows)
        let (shot, check) = try run.waitForCheck("the astronaut in the pane", [astronaut])
        #expect(check.passes(likeness: WindowRun.likeness), "\(check)")
        // The measure tells pictures apart: the next photo is far from what is drawn there.
        let other = ScreenCheck.difference(shot, at: astronaut.drawn, from: try pictures.source("chelsea.png"))
        #expect(other > 3 * check.differences[0].difference, "another photo's difference there: \(other)")
        // Esc: the list again, its thumbnails (each its own picture), and no pixel of the pane's picture anywhere.
        try run.tty.type("\u{1B}")
        let thumbnails = try run.waitForPictures("the list after Esc", try pictures.all(maxSide: 200), minimum: 2) {
            $0[0].name == "astronaut.png" && $0[0].drawn.width < astronaut.drawn.width
        }
        #expect(thumbnails.count >= 2, "\(thumbnails)")
        // j, then Enter: the second picture, not the first.
        try run.tty.type("j")
        try run.tty.type("\r")
        let chelsea = try await panePicture("chelsea.png", columns: columns, rows: rows)
        let (second, secondCheck) = try run.waitForCheck("the cat in the pane", [chelsea])
        #expect(secondCheck.passes(likeness: WindowRun.likeness), "\(secondCheck)")
        let old = ScreenCheck.difference(second, at: chelsea.drawn, from: try pictures.source("astronaut.png"))
        #expect(old > 3 * secondCheck.differences[0].difference, "the first photo's difference there: \(old)")
        // q closes the pane, q again quits: the screen the program leaves holds no picture pixels.
        try run.tty.type("q")
        _ = try run.waitForPictures("the list after q", try pictures.all(maxSide: 200), minimum: 2)
        try run.tty.type("q")
        #expect(try run.program.waitForExit() == 0)
        let left = try run.waitForCheck("no picture after quitting", []).1
        #expect(left.ghostPixels == 0)
    }

    @Test func aResizeRedrawsThePictureAtItsNewCellsAndLeavesNoneElsewhere() async throws {
        let run = try WindowRun(browsing: pictures.folder, columns: 100, rows: 30)
        defer { run.close() }
        try run.waitForList()
        try run.tty.type("\r")
        _ = try run.waitForCheck("the astronaut in the pane",
                                 [try await panePicture("astronaut.png", columns: 100, rows: 30)])
        // xterm's own resize request (CSI 8 ; rows ; columns t), as a program would send it: the window shrinks,
        // the program gets SIGWINCH and lays the pane out again, smaller.
        try run.resize(columns: 90, rows: 24)
        let smaller = try await panePicture("astronaut.png", columns: 90, rows: 24)
        let check = try run.waitForCheck("the astronaut at 90x24", [smaller]).1
        #expect(check.passes(likeness: WindowRun.likeness), "\(check)")
        // And larger again: no pixels of the smaller picture stay beside the larger one.
        try run.resize(columns: 110, rows: 36)
        let larger = try await panePicture("astronaut.png", columns: 110, rows: 36)
        let grown = try run.waitForCheck("the astronaut at 110x36", [larger]).1
        #expect(grown.passes(likeness: WindowRun.likeness), "\(grown)")
        #expect(larger.drawn.width > smaller.drawn.width, "\(larger.drawn) after \(smaller.drawn)")
        try run.tty.type("qq")
        #expect(try run.program.waitForExit() == 0)
        #expect(try run.waitForCheck("no picture after quitting", []).1.ghostPixels == 0)
    }
}
