import Foundation
import Pixels
import TestSupport
import Testing

/// The detail pane's picture in a real kitty (Debian's 0.26.5: kitty graphics with direct placements, no Unicode
/// placeholders) under Xvfb: the placement shows the picture's own pixels over exactly the pane's picture cells
/// (stretched over them: the placement names its columns and rows), and Esc deletes it.
@Suite(.serialized, .enabled(if: KittyWindow.available, "kitty and Xvfb are not installed (scripts/setup)"),
       .enabled(if: TerminalTTY.canType, "the kernel refuses TIOCSTI, which types into kitty"))
struct KittyWindowEndToEndTests {
    let pictures: XtermPictures

    init() async throws {
        pictures = try XtermPictures()
    }

    @Test func theDetailPanesPlacementLooksLikeItsSourceAndEscDeletesIt() async throws {
        let (columns, rows) = (100, 30)
        let run = try WindowRun(browsing: pictures.folder, columns: columns, rows: rows, in: .kitty)
        defer { run.close() }
        try run.waitForList()
        try run.tty.type("\r")
        let source = try pictures.source("astronaut.png")
        let cells = try await XtermDetailPaneEndToEndTests.paneCells(for: source, columns: columns, rows: rows,
                                                              in: run.geometry)
        let astronaut = ExpectedPicture.filling("astronaut.png", source, cells: cells)
        let (shot, check) = try run.waitForCheck("kitty: the astronaut in the pane", [astronaut])
        #expect(check.passes(likeness: WindowRun.likeness), "\(check)")
        let other = ScreenCheck.difference(shot, at: astronaut.drawn, from: try pictures.source("chelsea.png"))
        #expect(other > 3 * check.differences[0].difference, "another photo's difference there: \(other)")
        // Esc: the placement is deleted, the list is back with its thumbnails (each its own picture), and no pixel of
        // the pane's picture stays.
        try run.tty.type("\u{1B}")
        try run.waitForList()
        let thumbnails = try run.waitForPictures("kitty: the list after Esc", try pictures.all(maxSide: 200),
                                                 minimum: 2) {
            $0[0].name == "astronaut.png" && $0[0].drawn.width < astronaut.drawn.width
        }
        #expect(thumbnails.count >= 2, "\(thumbnails)")
        try run.tty.type("q")
        #expect(try run.program.waitForExit() == 0)
        #expect(try run.waitForCheck("kitty: no picture after quitting", []).1.ghostPixels == 0)
    }
}
