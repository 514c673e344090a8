import Foundation
import Testing

/// The grid view in a real terminal (tmux), on the embedded demo: `--layout grid` and `v`, moving in two dimensions,
/// Enter and back, the mouse, and fast scrolling under latency with no wrong picture.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct GridEndToEndTests {
    /// The captions on a line: runs of text separated by two spaces or more (and the selection marker).
    func captions(_ line: String) -> [String] {
        line.replacingOccurrences(of: "▌", with: " ")
            .components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The first screen of the demo's grid, settled, and the number of cells across (its first caption line's).
    func startGrid(_ tmux: TmuxSession) async throws -> (lines: [String], columns: Int) {
        let lines = try await tmux.waitFor("the grid, settled") { lines in
            lines.first?.contains(" 1 / ") == true && DemoEndToEndTests().settled(lines)
                && lines.contains { $0.contains("Human") && $0.contains("Droid") }
        }
        let captionLine = try #require(lines.first { $0.contains("Human") })
        return (lines, captions(captionLine).count)
    }

    @Test func theGridShowsCaptionedPicturesSideBySideAndMovesInTwoDimensions() async throws {
        let tmux = try TmuxSession(DemoEndToEndTests.fastDemo + ["--layout", "grid"], columns: 120, rows: 40)
        defer { tmux.close() }
        let (lines, columns) = try await startGrid(tmux)
        #expect(columns >= 3, "several pictures across a 120-column screen")
        let captionY = try #require(lines.firstIndex { $0.contains("Human") })
        #expect(captionY >= 8, "pictures several lines tall above their captions")
        // The pictures above the captions are drawn: no blank picture lines.
        #expect(lines[(captionY - 4)..<captionY].allSatisfy { $0.trimmingCharacters(in: .whitespaces).count > 40 })
        try tmux.send("l")
        try await tmux.waitFor(text: " 2 / ")
        try tmux.send("j")
        try await tmux.waitFor(text: " \(2 + columns) / ")
        try tmux.send("Left")
        try await tmux.waitFor(text: " \(1 + columns) / ")
        try tmux.send("Up")
        try await tmux.waitFor(text: " 1 / ")
        try tmux.send("Right", "Enter")
        try await tmux.waitFor(text: "item 2 / ")
        try tmux.send("Escape")
        try await tmux.waitFor("the grid again") { lines in
            lines.first?.contains(" 2 / ") == true && lines.contains { $0.contains("Human") && $0.contains("Droid") }
        }
        try tmux.send("v")
        let list = try await tmux.waitFor("the list") { lines in
            lines.contains { $0.contains("Human") } && !lines.contains { $0.contains("Human") && $0.contains("Droid") }
        }
        #expect(list.first?.contains(" 2 / ") == true, "the selection is kept")
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func aClickSelectsTheCellUnderItAndPlusMakesPicturesBigger() async throws {
        let tmux = try TmuxSession(DemoEndToEndTests.fastDemo + ["--layout", "grid"], columns: 120, rows: 40)
        defer { tmux.close() }
        let (lines, columns) = try await startGrid(tmux)
        let captionY = try #require(lines.firstIndex { $0.contains("Human") })
        let droidX = try #require(lines[captionY].range(of: "Droid")).lowerBound.utf16Offset(in: lines[captionY])
        // An xterm mouse report: ESC [ M, button+32, column+33, row+33; press then release on the Droid's picture.
        for button in [0, 3] {
            let bytes = [27, 91, 77, button + 32, droidX + 2 + 33, captionY - 2 + 33]
            try tmux.type(String(decoding: bytes.map(UInt8.init), as: UTF8.self))
        }
        try await tmux.waitFor(text: " 2 / ")
        try tmux.send("+")
        let bigger = try await tmux.waitFor("fewer, bigger pictures") { lines in
            guard let line = lines.first(where: { $0.contains("Human") }) else { return false }
            return self.captions(line).count == columns - 1 && DemoEndToEndTests().settled(lines)
        }
        #expect(try #require(bigger.firstIndex { $0.contains("Human") }) > captionY, "taller pictures")
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func fastScrollingInTheGridUnderLatencyPaintsNoWrongPicture() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tt-grid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let statsFile = scratch.appendingPathComponent("stats.json").path
        let tmux = try TmuxSession(["demo", "--layout", "grid", "--latency", "150", "--jitter", "300",
                                    "--page-delay", "50", "--page-size", "10", "--rows", "80", "--no-disk-cache",
                                    "--stats-file", statsFile],
                                   columns: 120, rows: 40)
        defer { tmux.close() }
        // Three pages are in (the grid asks for a screen beyond the one it shows): enough rows to scroll through.
        // End follows the pages to the end of the list, so the list is cut to 80 rows for the screen to settle.
        try await tmux.waitFor(text: " 1 / 30")
        for key in ["PageDown", "j", "l", "PageDown", "End", "PageUp", "k", "h", "Home", "PageDown", "End", "End"] {
            try tmux.send(key)
        }
        // Settled, and the same on two captures in a row: tmux may capture a frame half written.
        var previous: [String] = []
        try await tmux.waitFor("every visible picture settled") { lines in
            defer { previous = lines }
            return lines == previous && DemoEndToEndTests().settled(lines) && !lines.contains { $0.contains("loading") }
        }
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
        let stats = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statsFile))) as? [String: Any])
        #expect(stats["wrong_paints"] as? Int == 0)
        #expect((stats["slot_reuses"] as? Int ?? 0) > 0, "scrolling reused slots")
    }
}
