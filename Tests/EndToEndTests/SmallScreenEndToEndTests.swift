import Foundation
import Testing

/// Small screens don't collide (issue 26, item 7), in the built binary: at 30x8 the detail pane's scroll marker has
/// a line of its own below the text instead of covering the title, and the pane's key hint is a short form that fits
/// instead of a cut one.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct SmallScreenEndToEndTests {
    @Test func theDetailPaneAt30x8KeepsItsTitleClearOfTheMarker() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-small-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: PipelineEndToEndTests.photos.appendingPathComponent("horse.png"),
                                        to: folder.appendingPathComponent("IMG_61-astronaut-on-the-moon.png"))
        let tmux = try TmuxSession(["browse", folder.path, "--no-disk-cache"], columns: 30, rows: 8)
        defer { tmux.close() }
        try await tmux.waitFor(text: "IMG_61")
        try tmux.send("Enter")
        let lines = try await tmux.waitFor("the detail pane with its scroll marker") { lines in
            lines.count >= 8 && lines[0].contains("item 1 / 1")
                && lines.contains { $0.contains(/lines \d+-\d+ of \d+|\d+-\d+\/\d+/) }
        }
        let screen = lines.joined(separator: "\n")
        #expect(!lines.contains { $0.contains(/[^ ]lines \d+-\d+ of \d+|[A-Za-z.]\d+-\d+\/\d+/) },
                "the marker is drawn over no text:\n\(screen)")
        #expect(lines.contains { $0.contains("IMG_61") }, "the title shows:\n\(screen)")
        #expect(lines[7].trimmingCharacters(in: .whitespaces) == "Esc back · ? help",
                "the hint's short form that fits, whole:\n\(screen)")
        try tmux.send("q", "q")
        #expect(try await tmux.exitStatus() == 0)
    }
}
