import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Hostile data in a real terminal: a server whose items point at local files, and a folder holding a FIFO and a
/// link to the terminal. No local file is read for a server's row, nothing blocks, and `q` still quits.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct HostileInputEndToEndTests {
    @Test func aServersFileLinksNeverReadLocalFiles() async throws {
        let server = try await TestHTTPServer.start()
        let horse = PipelineEndToEndTests.photos.appendingPathComponent("horse.png")
        server.serve("/things", .text("""
            {"items": [
              {"name": "passwd", "image": "file:///etc/passwd"},
              {"name": "tty", "image": "file:///dev/tty", "thumb": "file:///dev/tty"},
              {"name": "a local picture", "image": "\(horse.absoluteString)"},
              {"name": "redirected", "image": "/go"}
            ], "next": "file:///etc/shadow"}
            """))
        server.serve("/go", .redirect(to: "file:///etc/passwd"))
        let tmux = try TmuxSession(["browse", server.url("/things").absoluteString, "--items", "items", "--title", "name",
                                    "--image", "image", "--thumb", "thumb", "--next", "next", "--no-disk-cache"],
                                   columns: 160, rows: 40)
        defer { tmux.close() }
        var lines = try await tmux.waitFor(text: "a local picture")
        #expect(lines.joined().contains("the list stops here"), "the refused next link is said")
        try tmux.send("Enter")
        lines = try await tmux.waitFor(text: "Link refused")
        #expect(lines.contains { $0.contains("\"file:///etc/passwd\" was refused") })
        #expect(!lines.joined().contains("root:"), "the detail pane never shows the file")
        // The tty row: its links are refused, so nothing reads the keys; they still move and close the pane.
        try tmux.send("q", "j")
        try tmux.send("Enter")
        lines = try await tmux.waitFor(text: "\"file:///dev/tty\" was refused")
        try tmux.send("q", "j", "j", "Enter")
        lines = try await tmux.waitFor(text: "Image: \(server.url("/go").absoluteString)")
        lines = try await tmux.waitFor("the redirect to a file to fail") { screen in
            screen.contains { $0.contains("Image state: failed") }
        }
        #expect(!lines.joined().contains("root:"))
        try tmux.send("q", "q")
        #expect(try await tmux.exitStatus() == 0)
        #expect(server.requests.allSatisfy { !$0.path.contains("passwd") })
    }

    @Test func aFolderWithAFIFOAndALinkToTheTerminalListsThemAndStillQuits() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(mkfifo(folder.appendingPathComponent("a-fifo.jpg").path, 0o644) == 0)
        #expect(symlink("/dev/tty", folder.appendingPathComponent("b-tty.png").path) == 0)
        try FileManager.default.copyItem(at: PipelineEndToEndTests.photos.appendingPathComponent("horse.png"),
                                        to: folder.appendingPathComponent("c-horse.png"))
        let tmux = try TmuxSession(["browse", folder.path, "--no-disk-cache"])
        defer { tmux.close() }
        let lines = try await tmux.waitFor(text: "end of the list: 3 items")
        #expect(lines.filter { $0.contains("not a regular file") }.count == 2, "\(lines)")
        #expect(lines.contains { $0.contains("PNG · 400x328") })
        // Keys reach the app (nothing holds the terminal open for reading): move down and open the tty row.
        try tmux.send("j", "Enter")
        try await tmux.waitFor(text: "ThumbTable does not open it")
        try tmux.send("q", "q")
        #expect(try await tmux.exitStatus() == 0)
    }
}
