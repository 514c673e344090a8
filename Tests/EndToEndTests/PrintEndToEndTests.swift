import Foundation
import TestSupport
import Testing

/// `--print`: the built binary with stdout into a pipe, as a script runs it, against a folder of real photos, the
/// embedded demo and a test server with slow and silent images. One screen of text comes out, the size asked for,
/// with the thumbnails in colour and no terminal control beyond colours; then the program exits 0.
@Suite(.enabled(if: SharedPhotos.directory != nil, "../shared/data/images is not beside the package"))
struct PrintEndToEndTests {
    /// A temporary folder holding copies of `names` from the shared photos; removed by `body`'s end.
    func withFolder<T>(of names: [String], _ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-print-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in names {
            try FileManager.default.copyItem(at: SharedPhotos.directory!.appendingPathComponent(name),
                                            to: folder.appendingPathComponent(name))
        }
        return try await body(folder)
    }

    // MARK: What a print looks like

    /// The lines of a print with its SGR sequences taken out.
    static func visibleLines(_ output: String) -> [String] {
        let plain = output.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        var lines = plain.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The print ends with a line break: the empty string after it is no line.
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Checks `run` is a clean print of `columns` x `rows`: exit 0, that many lines each that wide, and no escape
    /// sequence but SGR colours (no alternate screen, no cursor moves, no clearing).
    func expectScreen(_ run: BinaryRun, columns: Int, rows: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == 0, "\(run.stderrText)", sourceLocation: sourceLocation)
        let lines = Self.visibleLines(run.stdoutText)
        #expect(lines.count == rows, "\(lines.count) lines", sourceLocation: sourceLocation)
        // Every glyph of these prints is one cell wide (ASCII titles, block and sextant glyphs).
        let widths = Set(lines.map(\.unicodeScalars.count))
        #expect(widths == [columns], "line widths \(widths)", sourceLocation: sourceLocation)
        #expect(!run.stdoutText.contains("\u{1B}[?1049h"), "the alternate screen", sourceLocation: sourceLocation)
        let others = run.stdoutText.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "",
                                                         options: .regularExpression)
        #expect(BinaryRun.controls(in: Array(others.utf8)).isEmpty,
                "controls other than SGR colours: \(BinaryRun.controls(in: Array(others.utf8)))",
                sourceLocation: sourceLocation)
    }

    // MARK: A folder of photos

    @Test func aFolderOfPhotosPrintsOneScreenInTrueColour() async throws {
        try await withFolder(of: ["chelsea.png", "coffee.png", "rocket.jpg", "camera.png"]) { folder in
            let run = try await PipedRun.run(["browse", folder.path, "--print", "--print-size", "100x30",
                                              "--color", "truecolor", "--no-disk-cache"])
            expectScreen(run, columns: 100, rows: 30)
            let lines = Self.visibleLines(run.stdoutText)
            #expect(lines[0].contains("ThumbTable") && lines[0].contains(" 1 / 4"), "\(lines[0])")
            for name in ["chelsea.png", "coffee.png", "rocket.jpg", "camera.png"] {
                #expect(lines.contains { $0.contains(name) }, "\(name) is on screen")
            }
            // The footer with the attribution is the last line; the status line's key hints are left out.
            #expect(lines[29].contains("All images from your files in"), "\(lines[29])")
            #expect(!run.stdoutText.contains("q quit"))
            // Thumbnails in 24-bit colour, and none still loading or failed.
            #expect(run.stdoutText.components(separatedBy: "8;2;").count > 100)
            #expect(!lines.joined().contains("failed"))
            #expect(run.stderr.isEmpty, "\(run.stderrText)")
        }
    }

    @Test func theGridPrintsCaptionedPictures() async throws {
        // In the folder's order (by name).
        let names = ["astronaut.png", "chelsea.png", "coffee.png", "coins.png", "rocket.jpg"]
        try await withFolder(of: names) { folder in
            let run = try await PipedRun.run(["browse", folder.path, "--print", "--layout", "grid",
                                              "--print-size", "120x40", "--color", "truecolor", "--no-disk-cache"])
            expectScreen(run, columns: 120, rows: 40)
            let lines = Self.visibleLines(run.stdoutText)
            // The first line of cells holds four captioned pictures side by side, the fifth starts the next line.
            let captions = try #require(lines.firstIndex { $0.contains("astronaut.png") })
            for name in names.prefix(4) { #expect(lines[captions].contains(name), "\(lines[captions])") }
            #expect(lines[(captions + 1)...].contains { $0.contains("rocket.jpg") })
            let ansi = run.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(ansi[1..<captions].allSatisfy { $0.components(separatedBy: "8;2;").count > 20 },
                    "each line above the captions crosses pictures in 24-bit colour")
            #expect(!lines.joined().contains("failed"))
        }
    }

    /// Only the characters' locale is read (`LC_CTYPE`): a locale that is not installed for another category (here
    /// the time's) leaves the print in Unicode. `setlocale(LC_ALL, "")` failed whole on it, and the print came out in
    /// ASCII (`>` for the selection, `.` between the header's parts).
    @Test func aMissingLocaleForAnotherCategoryLeavesThePrintInUnicode() async throws {
        try await withFolder(of: ["chelsea.png"]) { folder in
            let run = try await PipedRun.run(["browse", folder.path, "--print", "--print-size", "80x20",
                                              "--no-disk-cache"],
                                             environment: ["LC_ALL": "", "LC_CTYPE": "", "LANG": "C.UTF-8",
                                                           "LC_TIME": "xx_XX.UTF-8"])
            expectScreen(run, columns: 80, rows: 20)
            let lines = Self.visibleLines(run.stdoutText)
            #expect(lines[0].contains("ThumbTable · Folder"), "\(lines[0])")
            #expect(lines[1].hasPrefix("▌ "), "\(lines[1])")
        }
    }

    /// Text too long for its place is cut with an ellipsis: `…` in a UTF-8 locale, `~` in an ASCII one (the header's
    /// folder name and the row's "Image from" line, plain ASCII both: measured and cut by their bytes).
    @Test(arguments: [("C.UTF-8", "…"), ("C", "~")])
    func textTooLongIsCutWithTheLocalesEllipsis(locale: String, ellipsis: String) async throws {
        try await withFolder(of: []) { root in
            let folder = root.appendingPathComponent("a-rather-long-folder-name-for-the-subtitle-line")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: SharedPhotos.directory!.appendingPathComponent("chelsea.png"),
                                            to: folder.appendingPathComponent("cat.png"))
            let run = try await PipedRun.run(["browse", folder.path, "--print", "--print-size", "50x12",
                                              "--no-disk-cache"], environment: ["LC_ALL": locale, "LANG": locale])
            expectScreen(run, columns: 50, rows: 12)
            let lines = Self.visibleLines(run.stdoutText)
            #expect(lines[0].contains("\(ellipsis) 1/1"), "the header's folder name cut: \(lines[0])")
            let from = try #require(lines.first { $0.contains("Image from") }, "\(lines)")
            #expect(from.trimmingCharacters(in: .whitespaces).hasSuffix(ellipsis), "\(from)")
        }
    }

    @Test func noColorPrintsPlainTextAndAColourGivenWinsOverIt() async throws {
        try await withFolder(of: ["chelsea.png", "coins.png"]) { folder in
            let plain = try await PipedRun.run(["browse", folder.path, "--print", "--print-size", "80x20",
                                                "--no-disk-cache"], environment: ["NO_COLOR": "1"])
            expectScreen(plain, columns: 80, rows: 20)
            #expect(!plain.stdoutText.contains("\u{1B}"), "no escape sequence at all under NO_COLOR")
            // Thumbnails in `shapes`: ASCII glyphs, the selection marker aside.
            let thumbnail = Self.visibleLines(plain.stdoutText)[1].dropFirst(2).prefix(12)
            #expect(thumbnail.allSatisfy(\.isASCII) && thumbnail.contains { $0 != " " }, "\(thumbnail)")

            let palette = try await PipedRun.run(["browse", folder.path, "--print", "--print-size", "80x20",
                                                  "--no-disk-cache", "--color", "256"],
                                                 environment: ["NO_COLOR": "1"])
            expectScreen(palette, columns: 80, rows: 20)
            #expect(palette.stdoutText.contains("8;5;") && !palette.stdoutText.contains("8;2;"))
        }
    }

    @Test func withoutColorTheDepthIsWhatRenderPicksForItsStdout() async throws {
        try await withFolder(of: ["coffee.png"]) { folder in
            let arguments = ["browse", folder.path, "--print", "--print-size", "60x12", "--no-disk-cache"]
            // An empty NO_COLOR is no NO_COLOR (swift test may set it for the tests it runs).
            let direct = try await PipedRun.run(arguments, environment: ["COLORTERM": "truecolor", "TERM": "xterm",
                                                                         "NO_COLOR": ""])
            #expect(direct.stdoutText.contains("8;2;"))
            let palette = try await PipedRun.run(arguments, environment: ["COLORTERM": "", "TERM": "xterm-256color",
                                                                          "NO_COLOR": ""])
            #expect(palette.stdoutText.contains("8;5;") && !palette.stdoutText.contains("8;2;"))
        }
    }

    @Test func aFailedImageShowsItsFailureOnScreenAndOnStderr() async throws {
        try await withFolder(of: ["truncated.jpg", "rocket.jpg"]) { folder in
            let run = try await PipedRun.run(["browse", folder.path, "--print", "--print-size", "90x20",
                                              "--no-disk-cache", "--color", "truecolor"])
            expectScreen(run, columns: 90, rows: 20)
            let lines = Self.visibleLines(run.stdoutText)
            #expect(lines.contains { $0.contains("✗") } && lines.contains { $0.contains("failed") })
            #expect(lines.contains { $0.contains("rocket.jpg") })
            #expect(run.stderrText.contains("the thumbnail of 'truncated.jpg' failed"), "\(run.stderrText)")
        }
    }

    @Test func hostileFileNamesArePrintedEscaped() async throws {
        // Controls that are not SGR colours, so that the check below (which allows SGR) would see them leak.
        let names = ["clear\u{1B}[2J\u{1B}[H.png", "clip\u{1B}]52;c;aGk=\u{07}.png", "c1\u{9B}2J.png"]
        try await withFolder(of: []) { folder in
            for name in names {
                try FileManager.default.copyItem(at: SharedPhotos.directory!.appendingPathComponent("horse.png"),
                                                to: folder.appendingPathComponent(name))
            }
            let run = try await PipedRun.run(["browse", folder.path, "--print", "--print-size", "90x24",
                                              "--no-disk-cache", "--color", "truecolor"])
            expectScreen(run, columns: 90, rows: 24)
            let lines = Self.visibleLines(run.stdoutText)
            #expect(lines.contains { $0.contains("clear^[[2J^[[H.png") }, "\(lines)")
            #expect(lines.contains { $0.contains("c1<U+009B>2J.png") }, "\(lines)")
        }
    }

    // MARK: Other sources

    @Test func theDemoPrintsItsSpeciesWithTheirPictures() async throws {
        let run = try await PipedRun.run(["demo", "--print", "--print-size", "100x24", "--color", "truecolor",
                                          "--latency", "0", "--jitter", "0", "--page-delay", "0"])
        expectScreen(run, columns: 100, rows: 24)
        let lines = Self.visibleLines(run.stdoutText)
        #expect(lines[0].contains("Demo catalog"))
        #expect(lines.contains { $0.contains("Human") } && lines.contains { $0.contains("Droid") })
        #expect(lines[23].contains("All images from the demo server's Instant Answers"), "\(lines[23])")
        #expect(run.stdoutText.contains("8;2;"))
    }

    /// Serves a page of three rows at `/api` whose thumbnails are the shared photos at `/img/NAME`.
    func serveThreePhotos(on server: TestHTTPServer, slow: Duration, silent: String? = nil) throws {
        let names = ["chelsea.png", "coffee.png", "rocket.jpg"]
        let results = names.map { ["name": "Photo \($0)", "thumb": "/img/\($0)"] }
        let body = try JSONSerialization.data(withJSONObject: ["results": results])
        server.serve("/api", .ok([UInt8](body), contentType: "application/json"))
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: SharedPhotos.directory!.appendingPathComponent(name)))
            server.serve("/img/\(name)", name == silent ? .never : .ok(bytes).delayed(by: slow))
        }
    }

    func browseArguments(_ server: TestHTTPServer) -> [String] {
        ["browse", server.url("/api").absoluteString, "--items", "results", "--title", "name", "--thumb", "thumb",
         "--print", "--print-size", "80x24", "--color", "truecolor", "--no-disk-cache"]
    }

    @Test func aFailedFirstPageIsPrintedAndEndsWithStatus1() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/api", .status(500))
            let run = try await PipedRun.run(browseArguments(server) + ["--color", "none"])
            #expect(run.status == 1, "\(run.stderrText)")
            let lines = Self.visibleLines(run.stdoutText)
            #expect(lines.count == 24)
            #expect(lines[1].contains("Could not load the list"), "\(lines)")
            #expect(run.stderrText.contains("thumbtable: the first page failed: "), "\(run.stderrText)")
        }
    }

    @Test func thePrintWaitsForSlowImages() async throws {
        try await TestHTTPServer.with { server in
            try serveThreePhotos(on: server, slow: .milliseconds(1500))
            let run = try await PipedRun.run(browseArguments(server))
            expectScreen(run, columns: 80, rows: 24)
            let lines = Self.visibleLines(run.stdoutText)
            // Each row shows its picture: no spinner (a load still under way), no failure.
            #expect(!lines.joined().contains { "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏".contains($0) }, "\(lines.joined(separator: "\n"))")
            #expect(!lines.joined().contains("failed"))
            let ansiLines = run.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
            for name in ["chelsea.png", "coffee.png", "rocket.jpg"] {
                let row = try #require(lines.firstIndex { $0.contains("Photo \(name)") })
                #expect(ansiLines[row].contains("8;2;"), "\(name)'s row has its picture")
            }
            // Each picture came over the network, once, slowly: the print waited for the replies, not a cache.
            #expect(await server.waitUntilIdle(timeout: EndToEnd.deadline))
            for name in ["chelsea.png", "coffee.png", "rocket.jpg"] {
                #expect(server.requests(to: "/img/\(name)").map(\.outcome) == [.completed])
            }
        }
    }

    @Test func printTimeoutPrintsWhatThereIsWhenAnImageNeverComes() async throws {
        try await TestHTTPServer.with { server in
            try serveThreePhotos(on: server, slow: .zero, silent: "coffee.png")
            // The silent image stays loading (a stall limit of a minute); the other two have 20 s, which the most
            // loaded machine needs (with 1 s, one of them was once still decoding; 4 s is within reach of all the
            // suites starting at once beside a CPU hog). Nothing tells the test when they are done but the print
            // itself, so this one wait is a time.
            let run = try await PipedRun.run(browseArguments(server)
                                             + ["--print-timeout", "20", "--stall-timeout", "60"])
            expectScreen(run, columns: 80, rows: 24)
            let lines = Self.visibleLines(run.stdoutText)
            let coffee = try #require(lines.firstIndex { $0.contains("Photo coffee.png") })
            // The silent row shows the spinner's first frame; the others their pictures.
            #expect(lines[coffee..<coffee + 4].joined().contains("⠋"), "\(lines.joined(separator: "\n"))")
            #expect(!lines.joined().contains("failed"))
            #expect(run.stderrText.contains("printed after 20 s (--print-timeout) with 1 thumbnail on screen still "
                                            + "loading"), "\(run.stderrText)")
        }
    }

    // MARK: Bad input

    @Test(arguments: [
        (["--print-size", "100000x100000"], "--print-size 100000x100000 is larger than 1000x1000, the largest it "
            + "takes: give at most 1000 columns and 1000 rows"),
        (["--print-size", "80"], "--print-size must look like 40x20 (columns x rows), got '80'"),
        (["--print-size", "0x10"], "--print-size 0x10: columns and rows must both be at least 1"),
        (["--print-timeout", "-1"], "--print-timeout -1.0 is out of range: it takes 0.1 to 3600.0 seconds"),
        (["--thumb-size", "100000x100000"], "--thumb-size 100000x100000 is larger than 200x100, the largest it "
            + "takes: give at most 200 columns and 100 rows"),
    ])
    func aSizeOverItsCeilingIsRefusedNamingTheLimit(_ options: [String], _ message: String) async throws {
        try await withFolder(of: ["horse.png"]) { folder in
            let run = try await PipedRun.run(["browse", folder.path, "--print"] + options)
            #expect(run.status == 64)
            #expect(run.stderrText.contains(message), "\(run.stderrText)")
            #expect(run.stdout.isEmpty)
        }
    }

    @Test func aPrintSizeWithoutPrintIsRefused() async throws {
        let run = try await PipedRun.run(["browse", "/tmp", "--print-size", "80x24"])
        #expect(run.status == 64)
        #expect(run.stderrText.contains("--print-size and --print-timeout go with --print"), "\(run.stderrText)")
    }

    @Test func aTooSmallPrintSizeIsClampedWithANote() async throws {
        try await withFolder(of: ["horse.png"]) { folder in
            let run = try await PipedRun.run(["browse", folder.path, "--print", "--print-size", "5x2",
                                              "--no-disk-cache", "--color", "16"])
            expectScreen(run, columns: 20, rows: 4)
            #expect(run.stderrText.contains("note: 5x2 is smaller than 20x4, the smallest screen --print prints; "
                                            + "printing 20x4"), "\(run.stderrText)")
        }
    }
}

/// `--print` with stdout a terminal (tmux): the default size is the terminal's, less a line for the prompt, and the
/// terminal is left as it was: no alternate screen, the screen printed stays in the scrollback.
@Suite(.enabled(if: TmuxSession.tmuxAvailable && SharedPhotos.directory != nil, "tmux or the shared photos missing"))
struct PrintInATerminalEndToEndTests {
    @Test func theDefaultSizeIsTheTerminalsLessALine() async throws {
        try await PrintEndToEndTests().withFolder(of: ["coffee.png", "horse.png"]) { folder in
            let tmux = try TmuxSession(["browse", folder.path, "--print", "--no-disk-cache"], columns: 90, rows: 25,
                                       environment: ["NO_COLOR": "", "COLORTERM": ""])
            defer { tmux.close() }
            let started = ContinuousClock.now
            let status = try await tmux.exitStatus()
            #expect(status == 0, "status \(String(describing: status)) after \(ContinuousClock.now - started)")
            #expect(try tmux.pane("alternate_on") == "0")
            let lines = try tmux.screen()
            // 24 lines printed on a 25-line terminal: the header is still on the top line, the footer on the 24th.
            #expect(lines[0].contains("ThumbTable") && lines[0].contains(" 1 / 2"), "\(lines)")
            #expect(lines[23].contains("All images from your files in"), "\(lines)")
            #expect(lines.contains { $0.contains("horse.png") })
            // TERM=screen-256color without COLORTERM: 256 colours, as render picks.
            let escapes = try tmux.screenWithEscapes()
            #expect(escapes.contains("8;5;") && !escapes.contains("8;2;"))
        }
    }
}

/// The real photos in ../shared/data/images (its SOURCES.md says where each comes from).
enum SharedPhotos {
    static let directory: URL? = {
        let url = URL(fileURLWithPath: #filePath)  // …/Tests/EndToEndTests/PrintEndToEndTests.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/data/images")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("chelsea.png").path) ? url : nil
    }()
}

/// One run of the built `thumbtable` with stdout into a pipe (what a script's `| cat` gives it), stderr into a file,
/// stdin from /dev/null, and `environment` over the test's own; run on a thread of its own, since it blocks until the
/// program ends.
enum PipedRun {
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> BinaryRun {
        let binary = try TmuxSession.binary()
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try run(binary, arguments, environment) })
            }.start()
        }
    }

    private static func run(_ binary: String, _ arguments: [String], _ environment: [String: String]) throws
        -> BinaryRun
    {
        let errPath = FileManager.default.temporaryDirectory.appendingPathComponent("tt-print-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errPath.path, contents: nil) else {
            throw TmuxSession.TmuxError(description: "cannot create \(errPath.path)")
        }
        defer { try? FileManager.default.removeItem(at: errPath) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errPath)
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        return BinaryRun(status: status, stdout: [UInt8](stdout), stderr: [UInt8](try Data(contentsOf: errPath)))
    }
}
