import Foundation
import Pixels
import Testing

/// A real xterm drawing sixels: Debian's `xterm -ti vt340` on a private Xvfb server whose screen is a file
/// (`-fbdir`), so tests read back the pixels the terminal drew.
///
/// The window sits at the screen's top left with no window manager, no border and xterm's fixed 6x13 font: cell
/// (column, row) starts at pixel (2 + 6 column, 2 + 13 row), 2 being xterm's inner border.
final class XtermSession {
    static let cellWidth = 6, cellHeight = 13, border = 2
    static let screenWidth = 800, screenHeight = 600

    static var available: Bool {
        ["/usr/bin/Xvfb", "/usr/bin/xterm"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private let server = Process()
    private let terminal = Process()
    private let framebufferDirectory: URL
    let display: String

    /// Starts Xvfb, then xterm running `command` (sh -c) in a `columns` x `rows` window on `background`. The
    /// window stays open after the command ends (`-hold`), showing what it drew.
    init(command: String, columns: Int = 80, rows: Int = 24, background: String = "#204060",
         extraArguments: [String] = []) throws {
        framebufferDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tt-xvfb-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: framebufferDirectory, withIntermediateDirectories: true)
        // -displayfd: the server picks a free display and writes its number to our pipe once it accepts clients.
        let displayPipe = Pipe()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        server.arguments = ["-displayfd", "1", "-screen", "0", "\(Self.screenWidth)x\(Self.screenHeight)x24",
                            "-fbdir", framebufferDirectory.path, "-nolisten", "tcp", "-br",
                            // The pointer would be drawn into the screen file, over the picture.
                            "-nocursor"]
        server.standardOutput = displayPipe
        server.standardError = FileHandle.nullDevice
        try server.run()
        var number = ""
        while !number.hasSuffix("\n") {
            let byte = displayPipe.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { throw XtermError(description: "Xvfb ended without naming its display") }
            number += String(decoding: byte, as: UTF8.self)
        }
        display = ":" + number.trimmingCharacters(in: .whitespacesAndNewlines)

        terminal.executableURL = URL(fileURLWithPath: "/usr/bin/xterm")
        terminal.arguments = [
            "-display", display, "-ti", "vt340", "-geometry", "\(columns)x\(rows)+0+0", "-bw", "0",
            "-bg", background, "-fg", "white", "-hold",
            // CSI 16 t (the cell size in pixels) is answered only with window operations allowed.
            "-xrm", "XTerm*allowWindowOps: true",
        ] + extraArguments + ["-e", "sh", "-c", command]
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = "C.UTF-8"
        environment.removeValue(forKey: "TMUX")
        terminal.environment = environment
        terminal.standardOutput = FileHandle.nullDevice
        terminal.standardError = FileHandle.nullDevice
        try terminal.run()
    }

    deinit {
        close()
    }

    func close() {
        // SIGKILL: xterm -hold stays up after SIGTERM, and so did Xvfb here with a client still connected.
        for process in [terminal, server] where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: framebufferDirectory)
    }

    /// The screen as it is now, read from Xvfb's framebuffer file (an XWD image).
    func screenshot() throws -> Bitmap {
        let file = framebufferDirectory.appendingPathComponent("Xvfb_screen0")
        return try XWDImage.bitmap(of: [UInt8](Data(contentsOf: file)))
    }

    /// The first screenshot `condition` accepts, checked every 50 ms (X has no way to tell a file reader that the
    /// screen changed) until `EndToEnd.deadline`.
    func waitForScreen(_ what: String, until condition: (Bitmap) -> Bool) throws -> Bitmap {
        let timeout = Double(EndToEnd.deadline.components.seconds)
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let shot = try? screenshot(), condition(shot) { return shot }
            guard Date() < deadline else {
                // The screen is kept for a look (an XWD file: `xwud -in FILE`, or ImageMagick's `display`).
                let kept = FileManager.default.temporaryDirectory.appendingPathComponent("thumbtable-xterm-failed.xwd")
                try? FileManager.default.removeItem(at: kept)
                try? FileManager.default.copyItem(at: framebufferDirectory.appendingPathComponent("Xvfb_screen0"),
                                                  to: kept)
                throw XtermError(description: "xterm: \(what) did not happen within \(timeout) s; screen kept in "
                                     + kept.path)
            }
            usleep(50_000)
        }
    }

    /// Whether a test can type into the terminal: TIOCSTI, which pushes bytes into a tty's input, is off on
    /// kernels built or set without it (`dev.tty.legacy_tiocsti = 0`).
    static var canType: Bool {
        guard let setting = try? String(contentsOfFile: "/proc/sys/dev/tty/legacy_tiocsti", encoding: .utf8) else {
            return true
        }
        return setting.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// Types `text` into the program on the tty at `path` (written there by the command with `tty`): xterm has no
    /// way in for keys without a window manager or XTest, so the bytes are pushed into the tty's input.
    static func type(_ text: String, intoTTY path: String) throws {
        let fd = open(path, O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw XtermError(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { Glibc.close(fd) }
        for var byte in Array(text.utf8) {
            guard ioctl(fd, UInt(TIOCSTI), &byte) == 0 else {
                throw XtermError(description: "TIOCSTI on \(path): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The pixel rectangle of cells `columns` x `rows` from cell (column, row).
    static func cellRect(column: Int, row: Int, columns: Int, rows: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        (border + column * cellWidth, border + row * cellHeight, columns * cellWidth, rows * cellHeight)
    }

    struct XtermError: Error, CustomStringConvertible {
        var description: String
    }
}

/// Reads the XWD files Xvfb keeps its screen in: 24-bit TrueColor, 32 bits a pixel, least significant byte first.
enum XWDImage {
    static func bitmap(of bytes: [UInt8]) throws -> Bitmap {
        func field(_ n: Int) -> Int {
            let i = n * 4
            return Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        }
        guard bytes.count >= 100 else { throw XtermSession.XtermError(description: "XWD file of \(bytes.count) bytes") }
        let headerSize = field(0), width = field(4), height = field(5), byteOrder = field(7)
        let bitsPerPixel = field(11), bytesPerLine = field(12), colours = field(19)
        let start = headerSize + colours * 12
        guard bitsPerPixel == 32, byteOrder == 0, bytes.count >= start + bytesPerLine * height else {
            throw XtermSession.XtermError(description: "XWD: \(bitsPerPixel) bits a pixel, byte order \(byteOrder), "
                                              + "\(bytes.count) bytes for \(width)x\(height)")
        }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let s = start + y * bytesPerLine + x * 4, d = (y * width + x) * 4
                pixels[d] = bytes[s + 2]
                pixels[d + 1] = bytes[s + 1]
                pixels[d + 2] = bytes[s]
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }
}

extension Bitmap {
    /// The `width` x `height` pixels from (x, y).
    func cropped(x: Int, y: Int, width: Int, height: Int) -> Bitmap {
        var out = Bitmap(width: width, height: height, fill: RGBA(r: 0, g: 0, b: 0))
        for row in 0..<height {
            for column in 0..<width { out[column, row] = self[x + column, y + row] }
        }
        return out
    }

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
