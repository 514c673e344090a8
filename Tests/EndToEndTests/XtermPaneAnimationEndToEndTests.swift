import Foundation
import Pixels
import TestSupport
import Testing

/// The detail pane's animation in a real xterm (`-ti vt340`, sixel): the picture's pixels on the screen, read back
/// from Xvfb, change by themselves while it plays, hold still after Space, and are gone after Esc.
@Suite(.serialized, .enabled(if: XtermSession.available, "xterm and Xvfb are not installed (scripts/setup)"),
       .enabled(if: TerminalTTY.canType, "the kernel refuses TIOCSTI, which types into the xterm"))
struct XtermPaneAnimationEndToEndTests {
    /// Six frames of a red bar stepping across a blue 96x64 picture, 150 ms each: colours no text has.
    static let redBar = TestGIF.animated(width: 96, height: 64, frames: 6, delay: 15,
                                         palette: [(0, 0, 200), (220, 0, 0)]) { frame, x, _ in
        x / 16 == frame ? 1 : 0
    }

    /// The pixels of `rect` in `shot`.
    static func crop(_ shot: Bitmap, _ rect: PixelRect) -> [UInt8] {
        var pixels: [UInt8] = []
        for y in rect.y..<min(shot.height, rect.y + rect.height) {
            let start = (y * shot.width + rect.x) * 4
            pixels += shot.pixels[start..<start + min(rect.width, shot.width - rect.x) * 4]
        }
        return pixels
    }

    /// Which sixth of the picture in `rect` the red bar is in (the mean column of its red pixels, within the columns
    /// of the picture's red and blue ones: the picture is drawn at its own size, never enlarged), or nil.
    static func barStep(_ shot: Bitmap, _ rect: PixelRect) -> Int? {
        var sum = 0, count = 0, left = Int.max, right = Int.min
        for y in rect.y..<min(shot.height, rect.y + rect.height) {
            for x in rect.x..<min(shot.width, rect.x + rect.width) {
                let pixel = shot[x, y]
                let red = pixel.r > 150 && pixel.b < 100, blue = pixel.b > 150 && pixel.r < 100
                if red { (sum, count) = (sum + x, count + 1) }
                if red || blue { (left, right) = (min(left, x), max(right, x)) }
            }
        }
        return count == 0 ? nil : (sum / count - left) * 6 / (right - left + 1)
    }

    @Test func anAnimatedGIFPlaysInThePanesPixelsHoldsOnSpaceAndLeavesNoneAfterEsc() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-anim-xterm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.redBar).write(to: folder.appendingPathComponent("bar.gif"))
        let (columns, rows) = (100, 30)
        let run = try WindowRun(browsing: folder, columns: columns, rows: rows)
        defer { run.close() }
        try run.waitForList()
        let cells = try await XtermDetailPaneEndToEndTests.paneCells(
            for: Bitmap(width: 96, height: 64, fill: RGBA(r: 0, g: 0, b: 0)), columns: columns, rows: rows)

        // Enter: the bar at three different places in the pane's cells (the text art stays the first frame's).
        try run.tty.type("\r")
        var steps: Set<Int> = []
        _ = try run.screen.waitForScreen("the bar at three places in the pane", failure: { "\(steps)" }) { shot in
            if let step = Self.barStep(shot, cells) { steps.insert(step) }
            return steps.count >= 3
        }

        // Space: once the frame on its way has landed, the pixels hold over four of the frames' 150 ms.
        try run.tty.type(" ")
        var held = Self.crop(try run.screen.screenshot(), cells)
        var steady = Date()
        _ = try run.screen.waitForScreen("the paused picture holding for 600 ms") { shot in
            let now = Self.crop(shot, cells)
            if now != held { (held, steady) = (now, Date()) }
            return Date().timeIntervalSince(steady) >= 0.6
        }

        // Esc: the list again; right of the row's thumbnail (its first 16 columns), the pane's cells hold text only.
        try run.tty.type("\u{1B}")
        let right = run.geometry.rect(column: 16, row: 0, columns: 1, rows: 1).x
        let rest = PixelRect(x: max(cells.x, right), y: cells.y, width: cells.x + cells.width - max(cells.x, right),
                             height: cells.height)
        _ = try run.screen.waitForScreen("only text where the pane's picture was") { shot in
            let pixels = Self.crop(shot, rest)
            return stride(from: 0, to: pixels.count, by: 4).allSatisfy {
                run.text.isText(RGBA(r: pixels[$0], g: pixels[$0 + 1], b: pixels[$0 + 2]))
            }
        }
        // And it stays so: no frame lands after the pane closed.
        let closed = Self.crop(try run.screen.screenshot(), rest)
        try await Task.sleep(for: .milliseconds(600))  // four frames' time: a frame would land in it
        #expect(Self.crop(try run.screen.screenshot(), rest) == closed, "nothing drawn there after Esc")
        try run.tty.type("q")
        #expect(try run.program.waitForExit() == 0)
    }
}
