import Foundation
import TestSupport
import Testing

/// The screen is the terminal, not stdin or stdout: with stdout redirected, piped or captured by `$(…)`, or stdin
/// piped, the table draws on `/dev/tty`, takes keys from it, gives it back on q, and writes nothing to stdout.
@Suite(.serialized)
struct ControllingTerminalEndToEndTests {
    /// Shell lines that run `CMD` with stdout or stdin elsewhere, each writing what reached stdout to `OUT` and the
    /// exit status to `OUT.status` (whole, by a rename).
    static let redirections = [
        "CMD > OUT; echo $? > OUT.s; mv OUT.s OUT.status",
        "CMD | cat > OUT; echo ${PIPESTATUS[0]} > OUT.s; mv OUT.s OUT.status",
        "x=$(CMD); echo $? > OUT.s; printf %s \"$x\" > OUT; mv OUT.s OUT.status",
        "echo piped | CMD > OUT; echo ${PIPESTATUS[1]} > OUT.s; mv OUT.s OUT.status",
    ]

    @Test(arguments: redirections)
    func theTableDrawsOnTheTerminalAndStdoutGetsNothing(line: String) async throws {
        let folder = try ColorEndToEndTests.folder(["chelsea.png", "coffee.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.path + ".out"
        defer {
            unlink(out)
            unlink(out + ".status")
        }
        let tmux = try TmuxSession(interactiveShellColumns: 100, rows: 30)
        defer { tmux.close() }
        try await tmux.waitFor(text: "$")
        let command = try TmuxSession.commandLine(["browse", folder.path])
        try tmux.type(line.replacingOccurrences(of: "CMD", with: command).replacingOccurrences(of: "OUT", with: out))
        try tmux.send("Enter")
        try await tmux.waitFor("the table, on the terminal") { lines in
            lines.joined().contains("chelsea.png") && lines.joined().contains("coffee.png")
        }
        #expect(try tmux.pane("alternate_on") == "1")
        // Keys come from the terminal: the filter opens and takes a name.
        try tmux.send("/")
        try tmux.type("coffee")
        try await tmux.waitFor("the filtered list") { lines in
            lines.dropFirst().contains { $0.contains("coffee.png") } && !lines.dropFirst().contains { $0.contains("chelsea.png") }
        }
        try tmux.send("Escape")
        try tmux.send("q")
        let status = try await Self.contents(of: out + ".status", in: tmux)
        #expect(status == "0\n")
        try SignalEndToEndTests().expectRestored(tmux)
        let written = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(written.isEmpty, "stdout got \(written.count) bytes: \(String(decoding: written.prefix(200), as: UTF8.self))")
    }

    /// A resize (SIGWINCH, and the size read from `/dev/tty`) and Ctrl-Z with `fg` work with stdout a file.
    @Test func resizeAndSuspendWorkOnTheTerminal() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tt-tty-\(UUID().uuidString)").path
        defer { unlink(out) }
        let signals = SignalEndToEndTests()
        let tmux = try TmuxSession(interactiveShellColumns: 100, rows: 30)
        defer { tmux.close() }
        try await tmux.waitFor(text: "$")
        try tmux.type(try TmuxSession.commandLine(DemoEndToEndTests.fastDemo) + " > " + out)
        try tmux.send("Enter")
        try await tmux.waitFor(text: " 1 / 20")
        try tmux.send("j")
        try await tmux.waitFor(text: " 2 / 20")
        try tmux.resize(columns: 60, rows: 20)
        let small = try await tmux.waitFor("the 60x20 layout") { lines in
            lines.count >= 20 && lines[0].contains(" 2 / 20") && lines[18].contains("All images")
        }
        #expect(small[0].count <= 60)
        try tmux.send("C-z")
        try await tmux.waitFor("the shell's \"Stopped\"") { $0.contains { $0.contains("Stopped") } }
        try signals.expectRestored(tmux)
        try await signals.continueInForeground(tmux, header: " 2 / 20")
        try tmux.send("j")
        try await tmux.waitFor(text: " 3 / 20")
        try await signals.quitToTheShell(tmux)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)).isEmpty, "nothing on stdout")
    }

    /// Detection's queries and answers, and the kitty pictures, go through `/dev/tty` too: stdout is a file.
    @Test func picturesAndDetectionUseTheTerminalWhenStdoutIsAFile() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tt-tty-\(UUID().uuidString)").path
        defer { unlink(out) }
        let command = ([try TmuxSession.binary()] + DemoEndToEndTests.fastDemo)
            .map(TmuxSession.quote).joined(separator: " ")
        let terminal = try PtyTerminal(program: "/bin/sh", arguments: ["-c", "exec \(command) > \(out)"],
                                       environment: ["COLORTERM": "truecolor"], columns: 100, rows: 30,
                                       persona: .kitty)
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.text.contains("1 / ") && $0.uploads.count >= 3 },
                "detection answered and thumbnails uploaded on the pty")
        // A key read from the pty moves the selection: a frame follows (only its changed cells, so no whole text).
        let before = terminal.snapshot.output.count
        terminal.type("j")
        #expect(await terminal.wait { $0.output.count > before })
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
        let end = terminal.snapshot
        #expect(Set(end.uploads.map(\.id)).isSubset(of: Set(end.deletes.map(\.id))), "deleted at exit")
        let written = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(written.isEmpty, "stdout got \(written.count) bytes")
    }

    /// Without a controlling terminal (a new session, as a daemon or `setsid` has) and with stdout not a terminal,
    /// there is nothing to draw on: a plain message, status 1, and nothing on stdout.
    @Test func withoutAnyTerminalTheMessageSaysSo() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["--wait", try TmuxSession.binary(), "browse", FileManager.default.temporaryDirectory.path]
        process.standardInput = FileHandle.nullDevice
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(message.contains("needs a terminal") && message.contains("no controlling terminal"), "\(message)")
        #expect(message.contains("--print"), "it says what to do instead: \(message)")
        #expect(output.isEmpty)
    }

    /// The contents of the file at `path` once a shell in `tmux` has written it (by a rename, whole).
    static func contents(of path: String, in tmux: TmuxSession) async throws -> String {
        _ = try await tmux.waitFor("\(path) written") { _ in FileManager.default.fileExists(atPath: path) }
        return try String(contentsOfFile: path, encoding: .utf8)
    }
}
