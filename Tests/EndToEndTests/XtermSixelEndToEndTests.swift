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

    /// The screen once the picture has been drawn: the window is up (its last cell shows the background), there is
    /// something else inside the text area, and it is the same on two reads in a row (xterm draws a sixel as its
    /// bytes arrive).
    static func settledPicture(_ xterm: XtermSession, columns: Int, rows: Int)
        throws -> (Bitmap, (x: Int, y: Int, width: Int, height: Int))
    {
        let area = XtermSession.cellRect(column: 0, row: 0, columns: columns, rows: rows)
        var previous: (x: Int, y: Int, width: Int, height: Int)?
        var found: (x: Int, y: Int, width: Int, height: Int)?
        let shot = try xterm.waitForScreen("a picture") { shot in
            guard shot[area.x + area.width - 1, area.y + area.height - 1] == background else { return false }
            let box = shot.boundingBox(notMatching: background, in: area)
            defer { previous = box }
            guard let box, let previous, box == previous else { return false }
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
        let (shot, box) = try Self.settledPicture(xterm, columns: 80, rows: 24)
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
        let (shot, box) = try Self.settledPicture(xterm, columns: 80, rows: 24)
        // render reads xterm's cells from TIOCGWINSZ (484x316 pixels for 80x24: 6x13 each, the border counted),
        // so the box is 240x156 pixels and the 451x300 photo fits its height.
        let expected = (width: Int((Double(source.width) * 156 / Double(source.height)).rounded()), height: 156)
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
}
