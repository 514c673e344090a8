import Foundation
import Testing

/// The reuse overlay in a real terminal (tmux), on the embedded demo with slow pictures: scrolling fast while they
/// load rebinds slots that are still loading, and the overlay shows it: each row tagged with its slot, and the log
/// saying which slot moved from which row to which and the load it cancelled.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct OverlayEndToEndTests {
    /// Every request to the demo server waits 3 s and pictures download one at a time: the first screen's pictures
    /// take seconds to arrive, time enough to scroll away from rows whose pictures are still loading. No disk cache,
    /// so a picture kept by an earlier run does not arrive at once.
    static let slowDemo = ["demo", "--latency", "3000", "--jitter", "0", "--page-delay", "0", "--max-downloads", "1",
                           "--no-disk-cache", "--reuse-overlay"]

    /// The selected row, from the header (" 7 / 20").
    static func headerRow(_ lines: [String]) -> Int? {
        lines.first?.firstMatch(of: /\ (\d+) \/ \d+/).flatMap { Int($0.1) }
    }

    /// A log line of a slot that left a row whose picture was still loading and cancelled that load. Scrolling fast
    /// gives one of two, both right: the slot rebound to a row coming into view ("row 3 → row 17, cancelled"), or
    /// freed because the scroll flew past its row before the picture came ("row 22 flown past, cancelled"). Which
    /// one depends on when the keys arrive against the frames, so the test takes either.
    static func isCancelLine(_ line: String) -> Bool {
        line.contains(/slot \d+: row \d+ (→ row \d+|flown past), cancelled/)
    }

    /// The slot tags at the rows' (or grid cells') edges: "slot 3", not the log's "slot 3:" nor the title's.
    static func slotTags(_ lines: [String]) -> [Int] {
        lines.flatMap { line in
            line.matches(of: /slot (\d+)(?= |$)/).compactMap { Int($0.1) }
        }
    }

    /// The list on 80x24 and the grid on 60x24: paging down rebinds slots whose pictures are still loading.
    @Test(arguments: [("list", 80, 3), ("grid", 60, 2)])
    func scrollingFastShowsSlotsAtTheRowsAndTheirCancelledLoadsInTheLog(layout: String, columns: Int,
                                                                        pagesAStep: Int) async throws {
        let size = layout == "list" ? ["--thumb-size", "12x5"] : []
        let tmux = try TmuxSession(Self.slowDemo + ["--layout", layout] + size, columns: columns, rows: 24)
        defer { tmux.close() }
        let first = try await tmux.waitFor("the first rows, tagged with their slots, pictures loading") { lines in
            lines.first?.contains(" 1 / ") == true && Self.slotTags(lines).count >= 2
        }
        #expect(first.contains { $0.contains("Reuse overlay · s hides") })
        #expect(first.contains { $0.contains("wrong_paints 0 (must stay 0)") })
        #expect(first.contains { $0.contains("state: loading · painted from memory/disk or downloaded") })

        // Away while the pictures still load (one download at a time, 3 s each), until slots leave rows whose
        // pictures had not arrived. A step typed one PgDn and waited for it: a step as slow as a download (a loaded
        // machine; 6 s a step made it fail every time) let the prefetch warm the next row and the slot's own load
        // finish before the next step, so no slot ever left a load. Each step now types several PgDns at once: the
        // program reads them one after another, and the screens in between bind slots that start loads and leave
        // them, whatever the machine's pace (it passed with 12 s a step).
        var row = 1
        var scrolled: [String] = []
        for _ in 0..<(40 / pagesAStep) {
            try tmux.send(contentsOf: Array(repeating: "PageDown", count: pagesAStep))
            scrolled = try await tmux.waitFor("the selection past row \(row)") { (Self.headerRow($0) ?? 0) > row }
            row = Self.headerRow(scrolled) ?? row + 1
            if scrolled.contains(where: Self.isCancelLine) { break }
        }
        #expect(!Self.slotTags(scrolled).isEmpty, "the rows on screen still show their slots")
        let moved = try #require(scrolled.first(where: Self.isCancelLine), "no slot cancelled a load")
        #expect(moved.contains(/cancelled \S+/), "the log names the picture: \(moved)")

        // When the pictures arrive, none is painted into a row that did not ask for it.
        let settled = try await tmux.waitFor("the pictures of the rows on screen") { lines in
            lines.contains { $0.contains(" downloaded") || $0.contains(" from memory") }
        }
        #expect(settled.contains { $0.contains("wrong_paints 0 (must stay 0)") })
        try tmux.send("s")
        try await tmux.waitFor("the overlay hidden, and the slots' tags with it") { lines in
            !lines.contains { $0.contains("Reuse overlay") } && Self.slotTags(lines).isEmpty
        }
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    /// The lines the selection marks at the left edge: the selected row's lines, or its grid cell's in the first
    /// column (a picture's text art starts further right, so its `▌` glyphs do not count).
    static func markedLines(_ lines: [String]) -> [Int] {
        lines.indices.filter { lines[$0].hasPrefix("▌") }
    }

    /// The selection is never hidden under the overlay (issue 26, item 1): in the demo, `s` and then `j` six times
    /// (the list) or twice (the grid, three cells across at 80 columns) select row 7, which shows whole above the
    /// overlay's panel, as tall as the first row showed before the overlay.
    @Test(arguments: [("list", 6), ("grid", 2)])
    func theSelectionStaysWholeAboveTheOverlay(layout: String, presses: Int) async throws {
        let tmux = try TmuxSession(["demo", "--latency", "0", "--jitter", "0", "--page-delay", "0",
                                    "--no-disk-cache", "--layout", layout], columns: 80, rows: 24)
        defer { tmux.close() }
        let first = try await tmux.waitFor("row 1 selected, its picture drawn") { lines in
            Self.headerRow(lines) == 1 && Self.markedLines(lines).count > 2
        }
        let rowLines = Self.markedLines(first).count
        try tmux.send("s")
        try await tmux.waitFor(text: "Reuse overlay · s hides")
        for _ in 0..<presses { try tmux.send("j") }
        let shown = try await tmux.waitFor("row 7 whole above the overlay (\(rowLines) lines)") { lines in
            guard Self.headerRow(lines) == 7,
                  let panel = lines.firstIndex(where: { $0.contains("Reuse overlay · s hides") }) else { return false }
            let marked = Self.markedLines(lines)
            return marked.count == rowLines && marked.allSatisfy { $0 < panel }
        }
        #expect(shown.contains { $0.contains("wrong_paints 0") }, "the overlay still shows its counters")
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }
}
