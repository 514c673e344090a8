import Foundation
import Testing

/// Nothing a new user does is met with silence, in the built binary in tmux: `w`, `W` and `d` act on the selected
/// row in the list, an unknown key says so, `y` says what tmux does with the copy, and a folder says how many of its
/// subfolders it leaves out.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct NothingSilentEndToEndTests {
    @Test func wCapitalWAndDActOnTheSelectedRowInTheListAndAnUnknownKeySaysSo() async throws {
        let scratch = try ReachEndToEndTests.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let saved = scratch.appendingPathComponent("saved")
        let tmux = try TmuxSession(["browse", scratch.appendingPathComponent("photos").path, "--no-disk-cache",
                                    "--color", "none", "--mode", "ascii", "--save-dir", saved.path])
        defer { tmux.close() }
        // The first row's thumbnail drawn (no spinner left): W saves it as shown.
        try await tmux.waitFor("the first row with its thumbnail") { lines in
            lines.joined().contains("chelsea.png")
                && !lines.joined().unicodeScalars.contains { DemoEndToEndTests.spinner.contains($0) }
        }
        try tmux.send("w")
        try await tmux.waitFor(text: "saved the image as \(saved.path)/chelsea.png")
        #expect(ReachEndToEndTests.bytes(saved.appendingPathComponent("chelsea.png"))
                == ReachEndToEndTests.bytes(ReachEndToEndTests.photos.appendingPathComponent("chelsea.png")))
        try tmux.send("W")
        try await tmux.waitFor(text: "saved the picture as \(saved.path)/chelsea.txt")
        let art = try String(contentsOf: saved.appendingPathComponent("chelsea.txt"), encoding: .utf8)
        #expect(art.split(separator: "\n").count > 2, "the row's thumbnail's lines")
        try tmux.send("d")
        try await tmux.waitFor(text: "removed the image from the memory and disk caches; r fetches it again")
        try tmux.send("x")
        try await tmux.waitFor(text: "unknown key x · ? lists the keys")
        try tmux.send("n")
        try await tmux.waitFor(text: "n shows the next item in the detail pane (Enter opens it)")
        // All of it in the list: no pane was opened.
        #expect(try !tmux.screen().joined().contains("Image state"))
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    /// tmux's default `set-clipboard external` drops a program's OSC 52: `y` says so and what to set; once it is
    /// `on`, `y` says copied and tmux holds the URL.
    @Test func yInsideTmuxSaysWhetherTmuxPassesTheCopyOn() async throws {
        let tmux = try TmuxSession(DemoEndToEndTests.fastDemo + ["--port", "0"], columns: 200)
        defer { tmux.close() }
        try await tmux.waitFor(text: "Human")
        try tmux.send("y")
        try await tmux.waitFor(text: "not copied: tmux's set-clipboard is external, which ignores programs; "
                               + "tmux set -g set-clipboard on lets y copy: ")
        #expect((try? tmux.tmux(["show-buffer"])) == nil, "no paste buffer")
        try tmux.tmux(["set-option", "-g", "set-clipboard", "on"])
        try tmux.send("y")
        let screen = try await tmux.waitFor(text: "copied the ")
        let status = try #require(screen.first { $0.contains("copied the ") })
        #expect(status.contains("(OSC 52 through tmux, which keeps it as a paste buffer too): "))
        let url = try #require(status.components(separatedBy: ": ").last?.trimmingCharacters(in: .whitespaces))
        try await tmux.waitForPasteBuffer(url)
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    /// A folder browsed without `--recursive` says how many subfolders it leaves out and how to see them.
    @Test func aFolderSaysHowManySubfoldersItLeavesOut() async throws {
        let scratch = try ReachEndToEndTests.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let photos = scratch.appendingPathComponent("photos")
        for name in ["2019", "2020", ".thumbnails"] {
            try FileManager.default.createDirectory(at: photos.appendingPathComponent(name),
                                                    withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(at: ReachEndToEndTests.photos.appendingPathComponent("coffee.png"),
                                        to: photos.appendingPathComponent("2020/beans.png"))
        let tmux = try TmuxSession(["browse", photos.path, "--no-disk-cache"])
        defer { tmux.close() }
        // Hidden folders are not counted: --recursive does not show them either.
        try await tmux.waitFor(text: "2 subfolders not shown: --recursive lists the images below too")
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
        tmux.close()

        let recursive = try TmuxSession(["browse", photos.path, "--no-disk-cache", "--recursive"])
        defer { recursive.close() }
        try await recursive.waitFor(text: "2020/beans.png")
        #expect(try !recursive.screen().joined().contains("not shown"))
        try recursive.send("q")
        #expect(try await recursive.exitStatus() == 0)
    }
}
