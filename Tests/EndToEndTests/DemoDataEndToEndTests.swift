import Foundation
import Testing

/// The demo's data as a user meets it, through the built binary: thousands of rows whose pictures each carry their
/// row's number, G following the list to its real end, and failed lookups told from rows without a picture.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct DemoDataEndToEndTests {
    /// No simulated latency: these tests are about what shows, not how fast.
    static let quick = ["demo", "--latency", "0", "--jitter", "0", "--page-delay", "0"]

    /// The thumbnail block of the row titled `title` in a printed list screen: the five lines from the title's,
    /// the columns left of it.
    func thumbnail(of title: String, in lines: [String]) -> [String]? {
        guard let index = lines.firstIndex(where: { $0.contains(title) }),
              let column = lines[index].range(of: title)?.lowerBound else { return nil }
        let width = lines[index].distance(from: lines[index].startIndex, to: column)
        return lines[index..<min(lines.count, index + 5)].map { String($0.prefix(width)) }
    }

    @Test func rowsWithTheSamePhotoShowDifferentPicturesTheirNumbers() throws {
        // Rows 1 (Human) and 9 (Ewok) are drawn from the same photo: before the numbers, the issue saw "Human and
        // Ewok show the same cat".
        let run = try BinaryRun.run(Self.quick + ["--rows", "43", "--no-disk-cache", "--print", "--print-size", "100x80",
                                                  "--thumb-size", "16x5", "--color", "none"])
        #expect(run.status == 0, "\(run.stderrText)")
        let lines = run.stdoutText.components(separatedBy: "\n")
        let human = try #require(thumbnail(of: "Human", in: lines), "\(run.stdoutText)")
        let ewok = try #require(thumbnail(of: "Ewok", in: lines), "\(run.stdoutText)")
        #expect(human.joined().contains { !$0.isWhitespace && $0 != "▌" }, "Human's picture is drawn")
        #expect(ewok.joined().contains { !$0.isWhitespace && $0 != "▌" }, "Ewok's picture is drawn")
        #expect(human != ewok, "Human:\n\(human.joined(separator: "\n"))\nEwok:\n\(ewok.joined(separator: "\n"))")
    }

    @Test func endFollowsThePagesToTheRealEndAndTheHeaderShowsTheTotal() async throws {
        let tmux = try TmuxSession(Self.quick + ["--rows", "300", "--page-delay", "100", "--thumb-size", "12x5"])
        defer { tmux.close() }
        try await tmux.waitFor(text: "1 / 25 · 300 in all")
        try tmux.send("G")
        // One G, no other key: the selection rides the pages down to the last of the 300 rows. (The header's
        // "following" is not waited for here: at 100 ms a page, under load, the ride can end between two reads of
        // the screen; `anyKeyStopsFollowingTheEnd` reads it at 400 ms a page.)
        let lines = try await tmux.waitFor("the end of the list") { lines in
            lines.joined().contains("end of the list: 300 items")
        }
        #expect(lines[0].contains(" 300 / 300"), "\(lines[0])")
        #expect(!lines[0].contains("following"), "following stops at the end")
    }

    @Test func anyKeyStopsFollowingTheEnd() async throws {
        let tmux = try TmuxSession(Self.quick + ["--rows", "2000", "--page-delay", "400", "--thumb-size", "12x5"])
        defer { tmux.close() }
        try await tmux.waitFor(text: "1 / 25 · 2000 in all")
        try tmux.send("G")
        try await tmux.waitFor(text: "following")
        try tmux.send("k")
        let stopped = try await tmux.waitFor("following stopped") { !$0[0].contains("following") }
        let row = try #require(stopped[0].firstMatch(of: /\ (\d+) \/ (\d+)/).flatMap { Int($0.1) })
        // While following, the selection is on the last loaded row and the next page is always under way (or asked
        // for at the next frame), so k leaves the selection one above the last row of the moment, row + 1, and that
        // page arrives after it. It may have arrived before the screen above was read, so the wait is for more rows
        // than there were when k was typed, not more than that screen showed.
        let later = try await tmux.waitFor("a page after k") { lines in
            guard let now = lines[0].firstMatch(of: /\ (\d+) \/ (\d+)/) else { return false }
            return Int(now.2)! > row + 1
        }
        #expect(later[0].contains(" \(row) / "), "the selection stays where k left it: \(later[0])")
        #expect(!later[0].contains("following"))
    }

    @Test func aFailedLookupSaysSoAndRRepairsIt() async throws {
        // Every URL fails its first request: the first page (r retries it), then every lookup on it; a picture fails
        // three times, more than the pipeline retries.
        let tmux = try TmuxSession(Self.quick + ["--rows", "43", "--fail-rate", "1", "--no-disk-cache",
                                                 "--thumb-size", "16x5"])
        defer { tmux.close() }
        try await tmux.waitFor(text: "Could not load")
        try tmux.send("r")
        let failed = try await tmux.waitFor("rows whose lookups failed") { lines in
            lines[0].contains(" 1 / ") && lines.filter { $0.contains("lookup failed") }.count >= 2
        }
        #expect(failed.contains { $0.contains("r: retry") })
        #expect(!failed.contains { $0.contains("no image") }, "a failed lookup is not shown as a row without picture")
        // r on row 1 looks its picture up again (the lookup answers the second time); the picture itself then fails
        // its three tries: a failed download, drawn as such.
        try tmux.send("r")
        try await tmux.waitFor("row 1's picture failing") { lines in
            lines[1...6].contains { $0.contains("failed") && !$0.contains("lookup") }
        }
        // Its fourth request answers: r again shows the picture, with no failure left on the row.
        try tmux.send("r")
        try await tmux.waitFor("row 1's picture") { lines in
            !lines[1...6].contains { $0.contains("failed") || $0.contains("lookup") }
                && lines[1...5].contains { $0.prefix(18).contains { !$0.isWhitespace && $0 != "▌" } }
        }
    }
}
