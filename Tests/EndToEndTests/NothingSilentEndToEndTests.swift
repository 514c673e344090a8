import Foundation
import Testing

/// Nothing a new user does is met with silence, in the built binary in tmux: `w`, `W` and `d` act on the selected
/// row in the list, an unknown key says so, `y` says what tmux does with the copy, and a folder says how many of its
/// subfolders it leaves out.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct NothingSilentEndToEndTests {
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
