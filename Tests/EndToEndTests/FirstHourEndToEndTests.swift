import Foundation
import Testing

/// What a new user hit in the first hour, in the built binary (issue 26, items 4, 5 and 10): `G` lands on the last
/// item, not on the end-of-list row; a failure while running (a bad config file, a port already taken) is said
/// without the usage text and with its own exit status, and `serve-demo` moves off a taken port as `demo` does; a
/// TERM that terminfo lacks runs on a common entry where one draws the same; the help and the detail pane say each
/// thing once.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct FirstHourEndToEndTests {
    /// A scratch folder holding two real photos, `chelsea.png` and then `coffee.png`.
    static func photoFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-first-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ReachEndToEndTests.names {
            try FileManager.default.copyItem(at: ReachEndToEndTests.photos.appendingPathComponent(name),
                                            to: folder.appendingPathComponent(name))
        }
        return folder
    }

    /// A socket listening on 127.0.0.1:`port` (0: any free port), so no one else can; nil when it cannot bind (the
    /// port is someone else's already).
    static func holdPort(_ port: UInt16) -> (socket: Int32, port: UInt16)? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let held = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard held else {
            close(fd)
            return nil
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    // MARK: Item 4: G means the last item

    /// In a folder, G then Enter opens the last photo: G selects it, not the end-of-list row below it (where Enter
    /// does nothing), and that row stays on screen.
    @Test(arguments: ["list", "grid"])
    func gSelectsTheLastItemSoEnterOpensIt(layout: String) async throws {
        let folder = try Self.photoFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tmux = try TmuxSession(["browse", folder.path, "--no-disk-cache", "--layout", layout],
                                   columns: 120, rows: 40)
        defer { tmux.close() }
        try await tmux.waitFor(text: "end of the list: 2 items")
        try tmux.send("G")
        let end = try await tmux.waitFor("the last photo selected") { $0[0].contains(" 2 / 2") }
        #expect(end.joined().contains("end of the list: 2 items"), "the end row shows below it")
        try tmux.send("Enter")
        let pane = try await tmux.waitFor("the last photo's detail pane") { lines in
            lines[0].contains("item 2 / 2") && lines.joined().contains("coffee.png")
        }
        #expect(!pane.joined().contains("chelsea.png"), "\(pane.joined(separator: "\n"))")
    }

    // MARK: Item 5: runtime failures are not usage errors

    /// `serve-demo` with no `--port` moves off a taken usual port to a free one and says which; a port given and
    /// taken stops with the reason, exit status 1 and no usage text.
    @Test func serveDemoMovesOffATakenPortAndAGivenTakenPortIsAFailureNotAUsageError() async throws {
        // Held here. Another program holding it (another test run's serve-demo) may let it go just as the server
        // starts, which then listens on it: it is waited for a while (no event says when a port is let go), and a
        // program that holds it for longer holds it for the whole test: taken either way.
        var usual = Self.holdPort(8737)
        let patience = ContinuousClock.now + .seconds(10)
        while usual == nil, ContinuousClock.now < patience {
            try await Task.sleep(for: .milliseconds(50))
            usual = Self.holdPort(8737)
        }
        defer { usual.map { _ = close($0.socket) } }
        let moved = try TmuxSession(["serve-demo", "--latency", "0", "--jitter", "0"], columns: 200)
        defer { moved.close() }
        let lines = try await moved.waitFor("the server on another port") { lines in
            lines.joined().contains("port 8737 is taken") && lines.joined().contains("ThumbTable demo server on http")
        }
        let text = lines.joined(separator: "\n")
        let port = try #require(text.firstMatch(of: /demo server on http:\/\/127\.0\.0\.1:(\d+)/).map { String($0.1) })
        #expect(port != "8737")
        #expect(text.contains("listens on \(port)"), "\(text)")
        #expect(!text.contains("Usage:"))
        moved.close()

        let held = try #require(Self.holdPort(0))
        defer { close(held.socket) }
        let refused = try TmuxSession(["serve-demo", "--port", "\(held.port)"], columns: 200)
        defer { refused.close() }
        #expect(try await refused.exitStatus() == 1)
        let screen = try await refused.waitFor(text: "cannot listen on 127.0.0.1:\(held.port)")
        #expect(!screen.joined().contains("Usage:"), "\(screen.joined(separator: "\n"))")
    }

    // MARK: Item 10: terminals people have, things said once

    /// A TERM that terminfo lacks runs on the common entry that draws the same, with a note in the status line:
    /// an `xterm-*` one (xterm-kitty on a server reached over ssh from kitty) on xterm-256color, tmux's on
    /// screen-256color. A TERM with no such entry still stops (`SignalEndToEndTests`).
    @Test(arguments: [("xterm-thumbtable-test", "xterm-256color"), ("tmux-thumbtable-test", "screen-256color")])
    func aTermMissingFromTerminfoFallsBackWithANote(term: String, entry: String) async throws {
        let folder = try Self.photoFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Wide enough for the note on one line.
        let tmux = try TmuxSession(["browse", folder.path, "--no-disk-cache"], columns: 250,
                                   environment: ["TERM": term])
        defer { tmux.close() }
        let lines = try await tmux.waitFor("the table with the note") { lines in
            lines[0].contains(" 1 / ") && lines.joined().contains("coffee.png")
                && lines.joined().contains("TERM=\(term) is not in the terminfo database: drawing as \(entry)")
        }
        #expect(try tmux.pane("alternate_on") == "1", "\(lines.joined(separator: "\n"))")
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    /// No option's help says its default twice (`--save-dir` said "(default: the current folder). (default: .)").
    @Test(arguments: ["demo", "swapi", "photos", "browse", "flickr", "serve-demo", "render", "cache", "pick"])
    func everyOptionsHelpSaysItsDefaultOnce(command: String) throws {
        let run = try BinaryRun.run([command, "--help"])
        #expect(run.status == 0, "\(run.stderrText)")
        // An option's help starts on a line indented two spaces; the lines indented further continue it.
        var entries: [String] = []
        for line in run.stdoutText.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  ") && !line.hasPrefix("   ") || entries.isEmpty {
                entries.append(String(line))
            } else {
                entries[entries.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        for entry in entries {
            let defaults = entry.lowercased().ranges(of: "default").count
            #expect(defaults <= 1, "\(entry)")
        }
        if command == "browse" {
            #expect(run.stdoutText.contains("(default: the current folder)"))
            #expect(!run.stdoutText.contains("(default: .)"), "\(run.stdoutText)")
        }
    }

    /// The demo's detail pane lists the picture's URL once: the SWAPI lookup's `Image:` field, not again below it.
    @Test func theDemoDetailPaneListsTheImageOnce() async throws {
        let tmux = try TmuxSession(DemoEndToEndTests.fastDemo, columns: 200, rows: 60)
        defer { tmux.close() }
        try await tmux.waitFor(text: " 1 / ")
        try tmux.send("Enter")
        let lines = try await tmux.waitFor("the pane's text down to the attribution") { lines in
            lines[0].contains("item 1 / ") && lines.joined().contains("Attribution:")
        }
        let images = lines.filter { $0.contains("Image: http") }
        #expect(images.count == 1, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("Image lookup: http") })
    }
}
