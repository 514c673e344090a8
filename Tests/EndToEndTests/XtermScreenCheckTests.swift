import Foundation
import Pixels
import TestSupport
import Testing

/// The screen checker on made-up screens: what counts as text, a picture in its place, a picture elsewhere.
@Suite struct ScreenCheckTests {
    static let background = RGBA(r: 0x20, g: 0x40, b: 0x60), white = RGBA(r: 255, g: 255, b: 255)
    let text = TextColours([background, white])
    let cells = CellGeometry(originX: 2, originY: 2, cellWidth: 6, cellHeight: 13)

    /// A picture with every pixel off the line from the background to white: red to green across, blue down.
    static func picture(width: Int, height: Int) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height, fill: background)
        for y in 0..<height {
            for x in 0..<width {
                bitmap[x, y] = RGBA(r: UInt8(255 - 200 * x / width), g: UInt8(200 * x / width),
                                    b: UInt8(40 * y / height))
            }
        }
        return bitmap
    }

    static func paste(_ picture: Bitmap, into screen: inout Bitmap, at x: Int, _ y: Int) {
        for row in 0..<picture.height {
            for column in 0..<picture.width { screen[x + column, y + row] = picture[column, row] }
        }
    }

    @Test func textIsItsColoursAndTheirMixturesAndNothingElse() {
        #expect(text.isText(Self.background) && text.isText(Self.white))
        // Halfway between them, as an antialiased glyph's edge is, give or take the rounding.
        #expect(text.isText(RGBA(r: 144, g: 160, b: 176)) && text.isText(RGBA(r: 148, g: 157, b: 178)))
        #expect(!text.isText(RGBA(r: 144, g: 160, b: 190)), "14 off the line")
        #expect(!text.isText(RGBA(r: 200, g: 40, b: 30)) && !text.isText(RGBA(r: 0, g: 0, b: 0)))
    }

    @Test func aPictureInItsCellsIsLikeItsSourceAndLeavesNoGhosts() {
        let source = Self.picture(width: 120, height: 80)
        var shot = Bitmap(width: 400, height: 300, fill: Self.background)
        let place = cells.rect(column: 5, row: 3, columns: 20, rows: 7)
        Self.paste(source, into: &shot, at: place.x, place.y)
        let screen = cells.rect(column: 0, row: 0, columns: 60, rows: 20)
        let expected = ExpectedPicture.fitted("made", source, in: place)
        #expect(expected.drawn == PixelRect(x: place.x, y: place.y, width: 120, height: 80))
        let check = ScreenCheck(shot, screen: screen, pictures: [expected], text: text)
        #expect(check.ghostPixels == 0 && check.differences[0].difference < 1, "\(check)")
        #expect(check.passes(likeness: 10))
        // Nothing expected there: every pixel of the picture is a ghost, in the picture's box.
        let ghost = ScreenCheck(shot, screen: screen, pictures: [], text: text)
        #expect(ghost.ghostPixels == 120 * 80 && ghost.ghostBox == expected.drawn, "\(ghost)")
        #expect(!ghost.passes(likeness: 10))
    }

    @Test func aPictureOneCellAsideIsUnlikeAndItsOverhangIsAGhost() {
        let source = Self.picture(width: 120, height: 80)
        var shot = Bitmap(width: 400, height: 300, fill: Self.background)
        let place = cells.rect(column: 5, row: 3, columns: 20, rows: 7)
        Self.paste(source, into: &shot, at: place.x + 6, place.y)
        let check = ScreenCheck(shot, screen: cells.rect(column: 0, row: 0, columns: 60, rows: 20),
                                pictures: [.fitted("made", source, in: place)], text: text)
        // The last column of cells pokes out: 6 pixels a row, 80 rows.
        #expect(check.ghostPixels == 6 * 80 && check.ghostBox == PixelRect(x: place.x + 120, y: place.y, width: 6,
                                                                            height: 80), "\(check)")
        #expect(check.differences[0].difference > 10, "\(check)")
    }
}

/// The screen checker on a real xterm's screen: a sixel drawn and left where the cursor only moved away is a ghost
/// wherever no picture is expected; the same sixel erased by text over its cells leaves none.
@Suite(.serialized, .enabled(if: XtermSession.available, "xterm and Xvfb are not installed (scripts/setup)"))
struct XtermScreenCheckTests {
    static let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos/chelsea.png").standardized.path

    /// `render` draws the photo at the top left (20x6 cells), then `after` runs (printf's format), then a mark
    /// is written: four cells of reverse video at the start of line 22, which show once xterm has read all before.
    static func session(after: String) throws -> XtermSession {
        let render = ([try TmuxSession.binary(), "render", photo, "--graphics", "sixel", "--size", "20x6"])
            .map(TmuxSession.quote).joined(separator: " ")
        // The cursor is hidden: xterm draws it over whatever is under it, pictures included.
        return try XtermSession(command: "printf '\\033[?25l'; " + render + "; printf '\(after)"
                                    + "\\033[22;1H\\033[7m    \\033[0m'", columns: 80, rows: 24)
    }

    /// The screen once the mark shows (`session(after:)`).
    static func waitForMark(_ xterm: XtermSession) throws {
        let mark = XtermSession.cells.rect(column: 0, row: 21, columns: 4, rows: 1)
        _ = try xterm.waitForScreen("the mark after the commands") {
            $0.isFilled(mark, with: RGBA(r: 255, g: 255, b: 255))
        }
    }

    static func expected() throws -> ExpectedPicture {
        let source = try XtermPictures.decode(photo)
        return .fitted("chelsea", source, in: XtermSession.cells.rect(column: 0, row: 0, columns: 20, rows: 6))
    }

    @Test func aSixelLeftBehindIsCountedAsGhostPixels() throws {
        let xterm = try Self.session(after: "\\033[20;40H")
        defer { xterm.close() }
        try Self.waitForMark(xterm)
        let screen = XtermSession.cells.rect(column: 0, row: 0, columns: 80, rows: 24)
        let picture = try Self.expected()
        let (shot, drawn) = try xterm.screen.waitForCheck("the photo drawn", cells: screen, pictures: [picture],
                                                         text: WindowRun.xtermText) {
            $0.passes(likeness: WindowRun.likeness)
        }
        #expect(drawn.passes(likeness: WindowRun.likeness), "\(drawn)")
        // The cursor moved away and nothing was written over the picture: expecting none, it is all ghost.
        let left = ScreenCheck(shot, screen: screen, pictures: [], text: WindowRun.xtermText)
        #expect(left.ghostPixels > picture.drawn.width * picture.drawn.height / 2, "\(left)")
        #expect(left.ghostBox.map { $0.isInside(picture.cells) } == true, "\(left)")
    }

    @Test func aSixelWrittenOverWithSpacesLeavesNoGhostPixels() throws {
        // Six lines of 20 spaces over the picture's cells, from the top left.
        let spaces = (1...6).map { "\\033[\($0);1H" + String(repeating: " ", count: 20) }.joined()
        let xterm = try Self.session(after: spaces + "\\033[20;40H")
        defer { xterm.close() }
        try Self.waitForMark(xterm)
        let screen = XtermSession.cells.rect(column: 0, row: 0, columns: 80, rows: 24)
        let erased = try xterm.screen.waitForCheck("the photo erased", cells: screen, pictures: [],
                                                   text: WindowRun.xtermText) { $0.ghostPixels == 0 }.1
        #expect(erased.ghostPixels == 0)
    }
}
