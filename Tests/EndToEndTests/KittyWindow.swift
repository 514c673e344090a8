import Foundation
import Pixels
import TestSupport

/// A real kitty drawing kitty graphics: Debian's kitty 0.26.5 (direct placements, no Unicode placeholders) on a
/// private Xvfb server, drawing through Mesa's software OpenGL into the screen file the tests read.
///
/// The window sits at the screen's top left with no window manager, no padding and kitty's default font; its cell
/// size is read from the window once it shows (`waitForWindow`): the window is exactly its cells. The first start on
/// a machine builds fontconfig's cache and can take many seconds: every wait polls the screen.
final class KittyWindow {
    static let screenWidth = 1280, screenHeight = 800
    static let executable = "/usr/bin/kitty"

    static var available: Bool {
        XvfbScreen.available && FileManager.default.isExecutableFile(atPath: executable)
    }

    let screen: XvfbScreen
    let columns: Int, rows: Int
    private let terminal = Process()

    /// Starts Xvfb, then kitty running `command` (sh -c) in a `columns` x `rows` window on `background`, white
    /// text, with no configuration file (`--config NONE`). The window stays open after the command ends (`--hold`).
    init(command: String, columns: Int, rows: Int, background: String = "#204060") throws {
        self.columns = columns
        self.rows = rows
        screen = try XvfbScreen(width: Self.screenWidth, height: Self.screenHeight)
        terminal.executableURL = URL(fileURLWithPath: Self.executable)
        let options = ["background=\(background)", "foreground=#ffffff", "initial_window_width=\(columns)c",
                       "initial_window_height=\(rows)c", "window_padding_width=0", "remember_window_size=no",
                       // The cursor is hidden by the program, but a blinking one could be drawn meanwhile.
                       "cursor_blink_interval=0", "enable_audio_bell=no",
                       // --hold's "Press Enter or Esc to exit" is in green (colour 2): white, it is text like the rest.
                       "color2=#ffffff"]
        terminal.arguments = ["--config", "NONE"] + options.flatMap { ["-o", $0] } + ["--hold", "sh", "-c", command]
        var environment = screen.clientEnvironment()
        // Software OpenGL (Mesa's llvmpipe): Xvfb has no GPU, and a host's driver would not draw into its file.
        environment["LIBGL_ALWAYS_SOFTWARE"] = "1"
        environment.removeValue(forKey: "KITTY_WINDOW_ID")
        terminal.environment = environment
        terminal.standardOutput = FileHandle.nullDevice
        terminal.standardError = FileHandle.nullDevice
        try terminal.run()
    }

    deinit {
        close()
    }

    /// Ends kitty with SIGTERM, which closes its windows and hangs up their programs (SIGKILL would leave its
    /// prewarmed child and the program running), SIGKILL if it is still there after 5 s; then the server.
    func close() {
        if terminal.isRunning {
            kill(terminal.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(5)
            while terminal.isRunning, Date() < deadline { usleep(20_000) }
            if terminal.isRunning { kill(terminal.processIdentifier, SIGKILL) }
        }
        screen.close()
    }

    /// Where kitty's cells are, once its window shows: the window is what is not the root window's black at the
    /// screen's top left, `columns` x `rows` cells and a pixel or two to spare (kitty 0.26.5 makes a window of 100 x
    /// 30 cells of 9x18 pixels 901x541), its bottom right corner the background.
    func waitForWindow(background: RGBA) throws -> CellGeometry {
        let black = RGBA(r: 0, g: 0, b: 0)
        var found: CellGeometry?
        _ = try screen.waitForScreen("kitty's window") { shot in
            // The last column and row with anything but black (glyphs may be black, never a whole line).
            let width = 1 + ((0..<shot.width).last { x in (0..<shot.height).contains { shot[x, $0] != black } } ?? -1)
            let height = 1 + ((0..<shot.height).last { y in (0..<width).contains { shot[$0, y] != black } } ?? -1)
            let cellWidth = width / columns, cellHeight = height / rows
            guard cellWidth > 0, cellHeight > 0, width - cellWidth * columns <= 2, height - cellHeight * rows <= 2,
                  shot[width - 1, height - 1] == background else { return false }
            found = CellGeometry(originX: 0, originY: 0, cellWidth: cellWidth, cellHeight: cellHeight)
            return true
        }
        return found!
    }
}
