import Foundation
import Pixels
import TestSupport

/// A private X server whose screen is a file (Xvfb `-fbdir`), so a test reads back the pixels a real terminal drew:
/// the display real terminals (xterm, kitty) run on in the tests.
final class XvfbScreen {
    let width: Int, height: Int
    /// The display's name, `:N`.
    let display: String
    private let server = Process()
    private let directory: URL

    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") }

    /// Starts the server and returns once it accepts clients.
    init(width: Int = 800, height: Int = 600) throws {
        self.width = width
        self.height = height
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tt-xvfb-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // -displayfd: the server picks a free display and writes its number to our pipe once it accepts clients.
        let displayPipe = Pipe()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        server.arguments = ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-fbdir", directory.path,
                            "-nolisten", "tcp", "-br",
                            // The pointer would be drawn into the screen file, over the picture.
                            "-nocursor"]
        server.standardOutput = displayPipe
        server.standardError = FileHandle.nullDevice
        try server.run()
        var number = ""
        while !number.hasSuffix("\n") {
            let byte = displayPipe.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { throw XvfbError(description: "Xvfb ended without naming its display") }
            number += String(decoding: byte, as: UTF8.self)
        }
        display = ":" + number.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        close()
    }

    /// Ends the server (SIGKILL: it stayed up after SIGTERM with a client still connected) and removes its file.
    func close() {
        if server.isRunning {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// The environment of a client of this display: UTF-8, and not inside the tmux the tests may run in.
    func clientEnvironment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = "C.UTF-8"
        environment.removeValue(forKey: "TMUX")
        return environment
    }

    /// The screen as it is now (an XWD image).
    func screenshot() throws -> Bitmap {
        try XWDImage.bitmap(of: [UInt8](Data(contentsOf: directory.appendingPathComponent("Xvfb_screen0"))))
    }

    /// The first screenshot `condition` accepts, checked every 50 ms (X has no way to tell a file reader that the
    /// screen changed) until `EndToEnd.deadline`. `failure` says what was seen last, for the error.
    func waitForScreen(_ what: String, failure: () -> String = { "" }, until condition: (Bitmap) -> Bool) throws
        -> Bitmap
    {
        let timeout = Double(EndToEnd.deadline.components.seconds)
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let shot = try? screenshot(), condition(shot) { return shot }
            guard Date() < deadline else {
                // The screen is kept for a look (an XWD file: `xwud -in FILE`, or ImageMagick's `display`).
                let kept = FileManager.default.temporaryDirectory.appendingPathComponent("thumbtable-xvfb-failed.xwd")
                try? FileManager.default.removeItem(at: kept)
                try? FileManager.default.copyItem(at: directory.appendingPathComponent("Xvfb_screen0"), to: kept)
                throw XvfbError(description: "\(what) did not happen within \(timeout) s (\(failure())); screen kept "
                                    + "in \(kept.path)")
            }
            usleep(50_000)
        }
    }

    /// The first screenshot whose check against `pictures` `accepts`, and that check: the screen read until the
    /// terminal has drawn what the test waits for (a picture comes band by band, an erase line by line).
    func waitForCheck(_ what: String, cells: PixelRect, pictures: [ExpectedPicture], text: TextColours,
                      accepts: (ScreenCheck) -> Bool) throws -> (Bitmap, ScreenCheck)
    {
        var last: ScreenCheck?
        let shot = try waitForScreen(what, failure: { last.map(String.init(describing:)) ?? "no screen read" }) {
            let check = ScreenCheck($0, screen: cells, pictures: pictures, text: text)
            last = check
            return accepts(check)
        }
        return (shot, last!)
    }

    struct XvfbError: Error, CustomStringConvertible {
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
        guard bytes.count >= 100 else { throw XvfbScreen.XvfbError(description: "XWD file of \(bytes.count) bytes") }
        let headerSize = field(0), width = field(4), height = field(5), byteOrder = field(7)
        let bitsPerPixel = field(11), bytesPerLine = field(12), colours = field(19)
        let start = headerSize + colours * 12
        guard bitsPerPixel == 32, byteOrder == 0, bytes.count >= start + bytesPerLine * height else {
            throw XvfbScreen.XvfbError(description: "XWD: \(bitsPerPixel) bits a pixel, byte order \(byteOrder), "
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
