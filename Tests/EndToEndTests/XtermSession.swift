import Foundation
import Pixels
import TestSupport

/// A real xterm drawing sixels: Debian's `xterm -ti vt340` on a private Xvfb server whose screen is a file
/// (`-fbdir`), so tests read back the pixels the terminal drew.
///
/// The window sits at the screen's top left with no window manager, no border and xterm's fixed 6x13 font: cell
/// (column, row) starts at pixel (2 + 6 column, 2 + 13 row), 2 being xterm's inner border.
final class XtermSession {
    static let cellWidth = 6, cellHeight = 13, border = 2
    /// Where xterm's cells are in the screen's pixels.
    static let cells = CellGeometry(originX: border, originY: border, cellWidth: cellWidth, cellHeight: cellHeight)
    static let screenWidth = 800, screenHeight = 600

    static var available: Bool {
        XvfbScreen.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/xterm")
    }

    let screen: XvfbScreen
    private let terminal = Process()
    var display: String { screen.display }

    /// Starts Xvfb, then xterm running `command` (sh -c) in a `columns` x `rows` window on `background`. The
    /// window stays open after the command ends (`-hold`), showing what it drew.
    init(command: String, columns: Int = 80, rows: Int = 24, background: String = "#204060",
         extraArguments: [String] = []) throws {
        screen = try XvfbScreen(width: Self.screenWidth, height: Self.screenHeight)
        terminal.executableURL = URL(fileURLWithPath: "/usr/bin/xterm")
        terminal.arguments = [
            "-display", screen.display, "-ti", "vt340", "-geometry", "\(columns)x\(rows)+0+0", "-bw", "0",
            "-bg", background, "-fg", "white", "-hold",
            // CSI 16 t (the cell size in pixels) is answered, and CSI 8 t (a resize) obeyed, only with window
            // operations allowed.
            "-xrm", "XTerm*allowWindowOps: true",
        ] + extraArguments + ["-e", "sh", "-c", command]
        terminal.environment = screen.clientEnvironment()
        terminal.standardOutput = FileHandle.nullDevice
        terminal.standardError = FileHandle.nullDevice
        try terminal.run()
    }

    deinit {
        close()
    }

    func close() {
        // SIGKILL: xterm -hold stays up after SIGTERM.
        if terminal.isRunning {
            kill(terminal.processIdentifier, SIGKILL)
            terminal.waitUntilExit()
        }
        screen.close()
    }

    /// The screen as it is now, read from Xvfb's framebuffer file.
    func screenshot() throws -> Bitmap {
        try screen.screenshot()
    }

    /// The first screenshot `condition` accepts (`XvfbScreen.waitForScreen`).
    func waitForScreen(_ what: String, until condition: (Bitmap) -> Bool) throws -> Bitmap {
        try screen.waitForScreen("xterm: " + what, until: condition)
    }

    /// The pixel rectangle of cells `columns` x `rows` from cell (column, row).
    static func cellRect(column: Int, row: Int, columns: Int, rows: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        (border + column * cellWidth, border + row * cellHeight, columns * cellWidth, rows * cellHeight)
    }
}

extension Bitmap {
    /// The smallest rectangle holding every pixel inside `area` that is not `background`; nil when there is none.
    func boundingBox(notMatching background: RGBA, in area: (x: Int, y: Int, width: Int, height: Int))
        -> (x: Int, y: Int, width: Int, height: Int)?
    {
        var left = Int.max, top = Int.max, right = -1, bottom = -1
        for y in area.y..<(area.y + area.height) {
            for x in area.x..<(area.x + area.width) where self[x, y] != background {
                left = min(left, x); right = max(right, x)
                top = min(top, y); bottom = max(bottom, y)
            }
        }
        return right < 0 ? nil : (left, top, right - left + 1, bottom - top + 1)
    }
}
