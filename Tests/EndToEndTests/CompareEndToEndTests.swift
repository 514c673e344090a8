import Foundation
import Testing

/// The built binary in a real terminal (tmux): `demo --compare --autoplay`, the naive table beside ThumbTable, both
/// scrolled by the seeded script over the same seeded delays; the summary it prints at the end shows the naive side
/// painting wrong rows and ThumbTable cancelling instead.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct CompareEndToEndTests {
    /// The counters of the summary's lines: name, then one value per side.
    func summary(_ lines: [String]) -> [String: [Int]] {
        var figures: [String: [Int]] = [:]
        for line in lines {
            let words = line.split(separator: " ")
            let values = words.dropFirst().compactMap { Int($0) }
            guard let name = words.first, !values.isEmpty, values.count == words.count - 1 else { continue }
            figures[String(name)] = values
        }
        return figures
    }

    @Test func theNaiveSidePaintsWrongRowsAndThumbTableNone() async throws {
        // No memory cache: a row scrolled back to loads again instead of showing its picture from memory, so the
        // short script still leaves the naive side late results to get wrong (the 43-row demo shares ten pictures).
        let tmux = try TmuxSession(["demo", "--compare", "--autoplay", "--seed", "7", "--autoplay-speed", "3",
                                    "--autoplay-length", "8", "--latency", "150", "--jitter", "600",
                                    "--memory-cache-mb", "0", "--thumb-size", "10x4"], columns: 140, rows: 36)
        defer { tmux.close() }
        // The split screen itself is checked while it stands still (`aKeyStopsTheAutoplayAndQQuits`): this script
        // may play to its end before a loaded machine's first capture.
        #expect(try await tmux.exitStatus() == 0)
        // tmux may mark the pane dead before it has shown the last bytes written: wait for the summary's end.
        let lines = try await tmux.waitFor("the summary") { lines in
            lines.contains { $0.hasPrefix("wrong_paints") } && lines.contains { $0.hasPrefix("rows_with_picture") }
        }
        let text = lines.joined(separator: "\n")
        #expect(text.contains("autoplay, seed 7"), "\(text)")
        #expect(text.contains("played to the end"), "\(text)")
        #expect(!text.contains("still loading"), "the pictures on screen loaded before the summary:\n\(text)")
        let figures = summary(lines)
        let wrong = try #require(figures["wrong_paints"], "\(text)")
        #expect(wrong.count == 2)
        #expect(wrong[0] > 0, "the naive side painted no wrong row:\n\(text)")
        #expect(wrong[1] == 0)
        #expect((figures["loads_cancelled"]?[1] ?? 0) > 0)
        #expect((figures["requests_cancelled"]?[1] ?? 0) > 0)
        #expect(figures["loads_cancelled"]?[0] == 0, "the naive side cancels nothing")
        #expect((figures["slot_reuses"]?[0] ?? 0) > 0)
        // At the end every row on ThumbTable's side with a picture shows the one loaded for it.
        // HOOK: once the demo's pictures carry their row's number, also read the last screen (the script could hold
        // it a moment before it quits) and check each row on the right half shows its own number.
        #expect((figures["rows_with_picture"]?[1] ?? 0) > 0)
        #expect(figures["rows_showing_wrong_picture"]?[1] == 0)
    }

    @Test func aKeyStopsTheAutoplayAndQQuits() async throws {
        // The longest script (200 runs of moves, minutes): the key must come while it still plays. With the default
        // 14 runs a loaded machine's first capture came after the script's end, and the key stopped nothing.
        let tmux = try TmuxSession(["demo", "--compare", "--autoplay", "--seed", "3", "--latency", "0", "--jitter",
                                    "0", "--autoplay-length", "200"], columns: 140, rows: 36)
        defer { tmux.close() }
        try await tmux.waitFor(text: "row ")
        try tmux.send("j")
        // Stopped: the split screen stays as it is, both sides named and divided.
        let split = try await tmux.waitFor("both sides named, each counting its wrong pictures") { lines in
            lines.first?.contains("· naive: no cancel, no generation check") == true
                && lines.first?.contains(/│ 0 wrong pictures · ThumbTable/) == true
        }
        #expect(split.dropFirst().contains { $0.contains("│") })
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
        // tmux may mark the pane dead before it has shown the last bytes written: wait for them.
        try await tmux.waitFor(text: "stopped by a key")
    }
}
