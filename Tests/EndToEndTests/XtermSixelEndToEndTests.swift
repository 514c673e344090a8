import Codecs
import Foundation
import Pixels
import TestSupport
import Testing

/// Sixels drawn by a real terminal: Debian's xterm in VT340 mode under Xvfb, its screen read back from Xvfb's
/// framebuffer file and compared with what was sent.
///
/// The comparison: the rectangle of pixels that differ from xterm's background (a colour no test picture has at its
/// edges) must sit where the picture was drawn and have its size; its content, and the source scaled to that size,
/// are averaged over 4x4 blocks and their mean absolute difference per channel (0-255) must stay under a bound
/// that a missing, shifted or wrong picture exceeds several times over.
@Suite(.serialized, .enabled(if: XtermSession.available, "xterm and Xvfb are not installed (scripts/setup)"))
struct XtermSixelEndToEndTests {
    static let background = RGBA(r: 0x20, g: 0x40, b: 0x60)

    static func write(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tt-\(UUID().uuidString).six").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The screen once the picture has been drawn whole: the window is up (its last cell shows the background) and
    /// what is drawn inside the text area has the box `whole` accepts. xterm draws a sixel band by band as its
    /// bytes arrive, and a stalled xterm can show half a picture for as long as it likes, so the wait is for the
    /// size expected, not for two equal reads.
    static func settledPicture(_ xterm: XtermSession, columns: Int, rows: Int,
                               whole: @escaping ((x: Int, y: Int, width: Int, height: Int)) -> Bool)
        throws -> (Bitmap, (x: Int, y: Int, width: Int, height: Int))
    {
        let area = XtermSession.cellRect(column: 0, row: 0, columns: columns, rows: rows)
        var found: (x: Int, y: Int, width: Int, height: Int)?
        let shot = try xterm.waitForScreen("a picture of the size expected") { shot in
            guard shot[area.x + area.width - 1, area.y + area.height - 1] == background,
                  let box = shot.boundingBox(notMatching: background, in: area), whole(box) else { return false }
            found = box
            return true
        }
        return (shot, try #require(found))
    }

    @Test func aHandWrittenSixelIsDrawnAtTheCursorInItsSizeAndColours() throws {
        // The DEC format by hand, not our encoder: 60x26 pixels, the left half red and the right half blue; four
        // full bands and one of two rows.
        var sixel = "\u{1B}P9;1;0q\"1;1;60;26#1;2;100;0;0#2;2;0;0;100"
        for _ in 0..<4 { sixel += "#1!30~#2!30~-" }
        sixel += "#1!30B#2!30B\u{1B}\\"
        let file = try Self.write(Array(sixel.utf8))
        defer { unlink(file) }
        // The cursor is hidden: xterm draws it over whatever is under it, pictures included.
        let xterm = try XtermSession(command: "printf '\\033[?25l'; cat \(file)", background: "#204060")
        defer { xterm.close() }
        let (shot, box) = try Self.settledPicture(xterm, columns: 80, rows: 24) { $0 == (2, 2, 60, 26) }
        #expect(box == (2, 2, 60, 26), "drawn from the top left cell's corner, 60x26")
        #expect(shot[2, 2] == RGBA(r: 255, g: 0, b: 0))
        #expect(shot[31, 27] == RGBA(r: 255, g: 0, b: 0))
        #expect(shot[32, 2] == RGBA(r: 0, g: 0, b: 255))
        #expect(shot[61, 27] == RGBA(r: 0, g: 0, b: 255))
    }

    @Test func renderDrawsAPhotoThatLooksLikeItsSource() throws {
        let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Resources/demo/photos/chelsea.png").standardized.path
        let source = try ImageDecoder.decodeFile(at: photo).bitmap
        let command = "printf '\\033[?25l'; " + TmuxSession.quote(try TmuxSession.binary())
            + " render " + TmuxSession.quote(photo) + " --graphics sixel --size 40x12"
        let xterm = try XtermSession(command: command, background: "#204060")
        defer { xterm.close() }
        // render reads xterm's cells from TIOCGWINSZ (484x316 pixels for 80x24: 6x13 each, the border counted),
        // so the box is 240x156 pixels and the 451x300 photo fits its height.
        let expected = (width: Int((Double(source.width) * 156 / Double(source.height)).rounded()), height: 156)
        let (shot, box) = try Self.settledPicture(xterm, columns: 80, rows: 24) { box in
            box.x == 2 && box.y == 2 && abs(box.width - expected.width) <= 1 && box.height == expected.height
        }
        #expect(box.x == 2 && box.y == 2, "drawn from the first cell's corner: \(box)")
        #expect(abs(box.width - expected.width) <= 1 && box.height == expected.height, "\(box), expected \(expected)")
        let drawn = shot.cropped(x: box.x, y: box.y, width: box.width, height: box.height)
        let scaled = ImageDifference.resized(source, width: box.width, height: box.height)
        // Measured: 0.79 from the source (the sixel's palette and dithering, xterm's drawing); 40.8 from the source
        // with red and blue swapped.
        let difference = ImageDifference.meanAbsolute(drawn, scaled, block: 4)
        #expect(difference < 10, "mean block difference from the source \(difference)")
        var swapped = scaled
        for i in stride(from: 0, to: swapped.pixels.count, by: 4) { swapped.pixels.swapAt(i, i + 2) }
        let control = ImageDifference.meanAbsolute(drawn, swapped, block: 4)
        #expect(control > 2 * difference, "the measure tells pictures apart: \(control)")
    }

    /// How many colours the pixels of `area` hold.
    static func colours(in shot: Bitmap, _ area: (x: Int, y: Int, width: Int, height: Int)) -> Int {
        var seen = Set<RGBA>()
        for y in area.y..<(area.y + area.height) {
            for x in area.x..<(area.x + area.width) { seen.insert(shot[x, y]) }
        }
        return seen.count
    }

    @Test(.enabled(if: TerminalTTY.canType, "the kernel refuses TIOCSTI, which types into the xterm"))
    func theDetailPaneShowsItsPictureInPixelsAndClearsItWhenItCloses() throws {
        // Text art in monochrome (--color none): the text art has the two colours of xterm's text, so many colours
        // in the pane can only be the picture in pixels. Detection is automatic (xterm answers sixel in DA1 and its
        // cell size to CSI 16 t).
        let program = try TerminalProgram(DemoEndToEndTests.fastDemo + ["--color", "none"])
        let xterm = try XtermSession(command: program.command, columns: 100, rows: 30, background: "#204060")
        defer { xterm.close() }
        let screen = XtermSession.cellRect(column: 0, row: 0, columns: 100, rows: 30)
        // The table is up once the first row is selected: its third line is drawn on the selection's grey.
        let selected = XtermSession.cellRect(column: 15, row: 3, columns: 40, rows: 1)
        // (Before xterm maps its window the screen is black: the root window's.)
        _ = try xterm.waitForScreen("the first row selected") { shot in
            Self.colours(in: shot, screen) > 1 && !Self.contains(RGBA(r: 0, g: 0, b: 0), in: shot, screen)
                && Self.colourfulBox(in: shot, selected) != nil
        }
        let tty = try program.tty()
        try tty.type("\r")
        // The picture starts at a cell's corner, inside the pane's left half (its image area at 100 columns; the
        // header and the two bottom lines are left out). It is far wider than the list's thumbnails (12 columns,
        // 72 pixels), pictures too.
        let imageArea = XtermSession.cellRect(column: 0, row: 1, columns: 51, rows: 27)
        let withPicture = try xterm.waitForScreen("the pane's picture in pixels") {
            (Self.colourfulBox(in: $0, imageArea)?.width ?? 0) > 150
        }
        let colourful = try #require(Self.colourfulBox(in: withPicture, imageArea))
        #expect((colourful.x - 2) % XtermSession.cellWidth == 0 && (colourful.y - 2) % XtermSession.cellHeight == 0,
                "at a cell's corner: \(colourful)")
        #expect(colourful.x + colourful.width <= 2 + 51 * XtermSession.cellWidth, "in the image area: \(colourful)")
        // q closes the pane: no pixel of the picture stays where the list's text now is, right of the thumbnails'
        // column (its pictures, at columns 2 to 13, are checked by XtermListGridEndToEndTests): only the colours
        // xterm draws text in with --color none (white, black, the dim grey) and the background. (The whole box
        // is not compared: the selected row's grey and the list's thumbnails sit in it once the list is back.)
        try tty.type("q")
        let textColumn = 2 + 14 * XtermSession.cellWidth
        let picturePart = (x: textColumn, y: colourful.y, width: colourful.x + colourful.width - textColumn,
                           height: colourful.height)
        try #require(picturePart.width > 0, "the pane's picture reaches past the thumbnails' column: \(colourful)")
        _ = try xterm.waitForScreen("the pane's pixels gone, the list's text back") { shot in
            Self.contains(RGBA(r: 170, g: 170, b: 170), in: shot, XtermSession.cellRect(column: 15, row: 3,
                                                                                    columns: 40, rows: 1))
                && Self.pictureColours(in: shot, picturePart) == 0
        }
    }

    /// How many pixels of `area` are neither the background nor a colour xterm draws text in with --color none.
    static func pictureColours(in shot: Bitmap, _ area: (x: Int, y: Int, width: Int, height: Int)) -> Int {
        let text: Set<RGBA> = [background, RGBA(r: 255, g: 255, b: 255), RGBA(r: 0, g: 0, b: 0),
                               RGBA(r: 170, g: 170, b: 170)]
        var count = 0
        for y in area.y..<(area.y + area.height) {
            for x in area.x..<(area.x + area.width) where !text.contains(shot[x, y]) { count += 1 }
        }
        return count
    }

    static func contains(_ colour: RGBA, in shot: Bitmap, _ area: (x: Int, y: Int, width: Int, height: Int)) -> Bool {
        (area.y..<(area.y + area.height)).contains { y in (area.x..<(area.x + area.width)).contains { shot[$0, y] == colour } }
    }

    /// The rectangle of pixels that are neither the background nor xterm's white text.
    static func colourfulBox(in shot: Bitmap, _ area: (x: Int, y: Int, width: Int, height: Int))
        -> (x: Int, y: Int, width: Int, height: Int)?
    {
        var left = Int.max, top = Int.max, right = -1, bottom = -1
        for y in area.y..<(area.y + area.height) {
            for x in area.x..<(area.x + area.width) {
                let p = shot[x, y]
                if p == background || p == RGBA(r: 255, g: 255, b: 255) { continue }
                left = min(left, x); right = max(right, x)
                top = min(top, y); bottom = max(bottom, y)
            }
        }
        return right < 0 ? nil : (left, top, right - left + 1, bottom - top + 1)
    }
}
