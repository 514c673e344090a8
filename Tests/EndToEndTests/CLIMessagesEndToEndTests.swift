import Foundation
import Testing

/// The built binary's messages on stdout and stderr: hostile file names and arguments are shown escaped, never
/// obeyed; sizes over their ceilings are refused with a message before anything is allocated; a mistyped command
/// gets the nearest one.
@Suite struct CLIMessagesEndToEndTests {
    static let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos/chelsea.png").standardized.path

    /// Names that would colour, clear, write the clipboard (OSC 52), ring, overwrite the line or start a CSI (C1).
    static let hostile = ["x\u{1B}[31m.png", "\u{1B}]52;c;aGk=\u{07}.png", "ring\u{07}.png", "over\rwrite.png",
                          "c1\u{9B}2J.png", "clear\u{1B}[2J\u{1B}[H.png", "bidi\u{202E}gnp.exe"]

    /// Checks a stream has no control character but the line feed.
    func expectClean(_ bytes: [UInt8], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let controls = BinaryRun.controls(in: bytes)
        #expect(controls.isEmpty, "\(what) has \(controls): \(String(decoding: bytes, as: UTF8.self).debugDescription)",
                sourceLocation: sourceLocation)
    }

    @Test(arguments: hostile)
    func aMissingFileWithAHostileNameIsNamedEscaped(_ name: String) throws {
        let run = try BinaryRun.run(["render", "/nonexistent/" + name, "--size", "8x4"])
        #expect(run.status == 1)
        #expect(run.stderrText.contains("/nonexistent/"), "\(run.stderrText)")
        expectClean(run.stderr, "stderr")
        expectClean(run.stdout, "stdout")
    }

    @Test func aFileWithHostileOrInvalidUTF8BytesInItsNameIsNamedEscaped() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Files that are not images, so render names them in its message; one name is not UTF-8 at all (0xFF,
        // a lone C1 CSI byte 0x9B, an ESC sequence).
        let notUTF8 = Array("raw".utf8) + [0xFF, 0x9B, 0x32, 0x4A, 0x1B] + Array("[31m.png".utf8)
        for name in Self.hostile.map({ Array($0.utf8) }) + [notUTF8] {
            let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name
            let fd = path.withUnsafeBufferPointer { buffer in
                (buffer.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
                    open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                }
            }
            try #require(fd >= 0)
            _ = "not an image".withCString { write(fd, $0, 12) }
            close(fd)
            let run = try BinaryRun.run(bytes: [Array("render".utf8), path, Array("--size".utf8), Array("8x4".utf8)])
            #expect(run.stderrText.contains("tt-names-"), "\(run.stderrText)")
            expectClean(run.stderr, "stderr for \(name)")
            if name == notUTF8 {
                // Looked up under the name with U+FFFD it would be "no such file": refused, saying why.
                #expect(run.status == 64)
                #expect(run.stderrText.contains("argument 2, '\(folder.path)/raw\u{FFFD}\u{FFFD}2J^[[31m.png', "
                                                + "is not UTF-8"), "\(run.stderrText)")
            } else {
                // Read and found not to be an image.
                #expect(run.status == 1)
                #expect(!run.stderrText.contains("No such file"), "\(run.stderrText)")
            }
        }
    }

    /// Usage errors ArgumentParser writes quote the argument; validation errors quote the value; the command
    /// suggestion quotes the word.
    @Test(arguments: [
        ["render", "a.png", "--b\u{1B}[31mogus"],
        ["render", "a.png", "--mode", "\u{1B}]52;c;aGk=\u{07}"],
        ["render", "a.png", "b\u{1B}[2J.png"],
        ["render", "a.png", "--size", "\u{1B}[31m"],
        ["browse", "/nonexistent/\u{1B}[31mdir"],
        ["swapi", "--base-url", "ftp://\u{1B}[31m"],
        ["br\u{1B}[31mwse"],
        ["--latency", "\u{9B}5"],
    ])
    func aHostileArgumentInAUsageErrorIsShownEscaped(_ arguments: [String]) throws {
        let run = try BinaryRun.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderrText.contains("^[") || run.stderrText.contains("<U+009B>"), "\(run.stderrText)")
        expectClean(run.stderr, "stderr")
        expectClean(run.stdout, "stdout")
    }

    @Test func cacheStatsShowsAHostileCacheFolderEscaped() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("tt-cache-\(UUID().uuidString)-\u{1B}]52;c;aGk=\u{07}")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try BinaryRun.run(["cache", "stats", "--cache-dir", folder.path])
        #expect(run.status == 0, "\(run.stderrText)")
        #expect(run.stdoutText.contains("^[]52;c;aGk=^G"), "\(run.stdoutText)")
        expectClean(run.stdout, "stdout")
        expectClean(run.stderr, "stderr")
    }

    @Test(arguments: [
        (["--size", "100000x100000"], "--size 100000x100000 is larger than 1000x1000, the largest it takes: "
            + "give at most 1000 columns and 1000 rows"),
        (["--size", "10000x10000"], "--size 10000x10000 is larger than 1000x1000"),
        (["--size", "-5x3"], "--size -5x3: columns and rows must both be at least 1"),
        (["--size=-5x3"], "--size -5x3: columns and rows must both be at least 1"),
        (["--cols", "99999999999999999999"], "99999999999999999999"),
        (["--rows", "-2"], "--rows -2 is out of range: it takes 1 to 1000"),
        (["--timeout", "1e308"], "--timeout 1e+308 is out of range: it takes 0.1 to 3600.0 seconds"),
    ])
    func renderRefusesASizeOverItsCeilingBeforeDrawing(_ options: [String], _ message: String) throws {
        let run = try BinaryRun.run(["render", Self.photo] + options)
        #expect(run.status == 64)
        #expect(run.stderrText.contains(message), "\(run.stderrText)")
        #expect(run.stdout.isEmpty)
    }

    /// `render FILE OPTIONS` goes through the quick parser; with `--` before the file it goes through
    /// ArgumentParser. Both say the same, for a refused value and for a file that is not there.
    @Test(arguments: [["--size", "-5x3"], ["--size", "100000x100000"], ["--cols", "0"], ["--timeout", "nan"], []])
    func renderSaysTheSameOnTheQuickAndTheLongPath(_ options: [String]) throws {
        // The photo with no options renders; the rest fail.
        for file in [Self.photo, "/nonexistent/\u{1B}[31m.png"] where !(options.isEmpty && file == Self.photo) {
            let quick = try BinaryRun.run(["render", file] + options)
            let long = try BinaryRun.run(["render"] + options + ["--", file])
            #expect(quick.status != 0)
            #expect(quick.status == long.status)
            #expect(quick.stderrText == long.stderrText)
        }
    }

    @Test func renderDrawsAtItsCeiling() throws {
        let run = try BinaryRun.run(["render", Self.photo, "--size", "1000x1000", "--mode", "ascii", "--color", "none"])
        #expect(run.status == 0, "\(run.stderrText)")
        let lines = run.stdoutText.split(separator: "\n")
        #expect((1...1000).contains(lines.count))
        #expect(lines.allSatisfy { $0.count <= 1000 })
    }

    @Test(arguments: [
        (["photos", "--memory-cache-mb", "99999"], "--memory-cache-mb 99999 is out of range: it takes 0 to 4096 MB"),
        (["browse", "/tmp", "--thumb-size", "1000x1000"], "--thumb-size 1000x1000 is larger than 200x100"),
        (["demo", "--port", "70000"], "--port 70000 is out of range: it takes 0 to 65535"),
        (["--latency", "-1"], "--latency -1 is out of range: it takes 0 to 60000 ms"),
    ])
    func browsingCommandsRefuseAValueOverItsCeilingBeforeStarting(_ arguments: [String], _ message: String) throws {
        let run = try BinaryRun.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderrText.contains(message), "\(run.stderrText)")
    }

    @Test func aMistypedCommandGetsTheNearestOne() throws {
        let run = try BinaryRun.run(["brwse", "/tmp"])
        #expect(run.status == 64)
        #expect(run.stderrText.contains("'brwse' is not a command; did you mean 'browse'?"), "\(run.stderrText)")
        #expect(!run.stderrText.contains("--latency"), "not the demo's usage: \(run.stderrText)")
    }

    /// `thumbtable PATH`: a file is rendered, a folder browsed (here printed, `--print`), as their commands would.
    @Test func aPathAsTheFirstArgumentRunsTheCommandThatShowsIt() throws {
        let photos = ReachEndToEndTests.photos.path
        let file = photos + "/chelsea.png"
        let direct = try BinaryRun.run([file, "--size", "12x6"])
        #expect(direct.status == 0, "\(direct.stderrText)")
        #expect(direct.stdout == (try BinaryRun.run(["render", file, "--size", "12x6"])).stdout)
        #expect(!direct.stdout.isEmpty)
        let folder = try BinaryRun.run([photos, "--print", "--color", "none", "--no-disk-cache"])
        #expect(folder.status == 0, "\(folder.stderrText)")
        #expect(folder.stdoutText.contains("chelsea.png"), "\(folder.stdoutText)")
    }

    @Test func versionPrintsTheVersionAndExitsZero() throws {
        let run = try BinaryRun.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdoutText.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil,
                "\(run.stdoutText)")
        #expect(run.stderrText.isEmpty)
    }
}

/// `thumbtable` alone, and with the demo's options but no command, still runs the demo.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct DefaultCommandEndToEndTests {
    @Test(arguments: [[], ["--latency", "0", "--jitter", "0", "--page-delay", "0"]])
    func noCommandRunsTheDemo(_ arguments: [String]) async throws {
        let tmux = try TmuxSession(arguments)
        defer { tmux.close() }
        // The first page loaded, so the event loop is reading keys.
        try await tmux.waitFor("the demo's first page") { lines in
            lines.first.map { $0.contains("Demo catalog") && $0.contains(" 1 / ") } ?? false
        }
        try tmux.send("q")
        let status = try await tmux.exitStatus()
        let screen = try tmux.screen().joined(separator: "\n")
        #expect(status == 0, "screen: \(screen)")
    }
}
