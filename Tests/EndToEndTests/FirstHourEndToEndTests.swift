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
        let end = try await tmux.waitFor("the last photo selected") { $0[0].contains("row 2 of 2 loaded") }
        #expect(end.joined().contains("end of the list: 2 items"), "the end row shows below it")
        try tmux.send("Enter")
        let pane = try await tmux.waitFor("the last photo's detail pane") { lines in
            lines[0].contains("item 2 of 2") && lines.joined().contains("coffee.png")
        }
        #expect(!pane.joined().contains("chelsea.png"), "\(pane.joined(separator: "\n"))")
    }
}
