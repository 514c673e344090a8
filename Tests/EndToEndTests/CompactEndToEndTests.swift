import Foundation
import Testing

/// The compact list in a real terminal (tmux), on the embedded demo (issue 26, item 8): `--layout compact` shows
/// many more rows than the list, `c` switches list and compact keeping the selection on screen, and Enter and Esc
/// open and close the detail pane over it.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct CompactEndToEndTests {
    static let rows = 40
    /// What the status line says in the compact list only: its key back to the list.
    static let compactHint = "c list · + - lines"
    static let marker = "▌"

    /// The rows on screen: the demo's subtitles ("mammal · sentient · Galactic Basic"), one line of each row, counted
    /// in the list area (below the header, above the footer and status lines).
    func rowsShown(_ lines: [String]) -> Int {
        lines.dropFirst().prefix(Self.rows - 3).filter { $0.contains(" · ") }.count
    }

    /// The row the header says is selected, and whether its marker shows in the list area.
    func selectionShows(_ lines: [String], row: Int) -> Bool {
        lines.first?.contains(" \(row) / ") == true
            && lines.dropFirst().prefix(Self.rows - 3).contains { $0.hasPrefix(Self.marker) }
    }

    @Test func compactShowsManyRowsAndTheKeySwitchesListAndCompactKeepingTheSelection() async throws {
        let tmux = try TmuxSession(DemoEndToEndTests.fastDemo + ["--layout", "compact"], columns: 120,
                                   rows: Self.rows)
        defer { tmux.close() }
        let first = try await tmux.waitFor("the compact list, settled") { lines in
            lines.first?.contains(" 1 / ") == true && DemoEndToEndTests().settled(lines) && self.rowsShown(lines) > 10
        }
        #expect(rowsShown(first) >= 17, "two lines a row: 18 rows in 37 lines")
        for _ in 0..<12 { try tmux.send("j") }
        try await tmux.waitFor("row 13 selected in the compact list") { lines in
            self.selectionShows(lines, row: 13) && lines.contains { $0.contains(Self.compactHint) }
        }
        try tmux.send("c")
        let list = try await tmux.waitFor("the list, row 13 still selected and on screen") { lines in
            self.selectionShows(lines, row: 13) && !lines.contains { $0.contains(Self.compactHint) }
                && self.rowsShown(lines) < 10
        }
        #expect(rowsShown(list) < rowsShown(first), "the list shows fewer rows than compact")
        try tmux.send("c")
        try await tmux.waitFor("compact again, row 13 still selected and on screen") { lines in
            self.selectionShows(lines, row: 13) && lines.contains { $0.contains(Self.compactHint) }
                && self.rowsShown(lines) > 10
        }
        try tmux.send("Enter")
        try await tmux.waitFor(text: "item 13 / ")
        try tmux.send("Escape")
        try await tmux.waitFor("compact after the pane, row 13 selected") { lines in
            self.selectionShows(lines, row: 13) && self.rowsShown(lines) > 10
                && !lines.contains { $0.contains("item 13 / ") }
        }
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    /// In kitty the compact rows' small thumbnails are pictures in pixels too: each uploaded at its 5x2 cells and drawn
    /// with placeholders; `c` to the list sends them again at the list's size.
    @Test func kittyShowsTheCompactThumbnailsInPixels() async throws {
        let terminal = try PtyTerminal(program: try TmuxSession.binary(),
                                       arguments: DemoEndToEndTests.fastDemo + ["--layout", "compact"],
                                       environment: ["COLORTERM": "truecolor"], columns: 100, rows: 30,
                                       persona: .kitty)
        defer { kill(terminal.pid, SIGKILL) }
        let drawn = await terminal.wait { snapshot in
            snapshot.uploads.count >= 8
                && KittyEndToEndTests.lastOffset(of: KittyEndToEndTests.placeholder, in: snapshot.output)
                    ?? 0 > snapshot.uploads[0].endOffset
        }
        #expect(drawn, "a screenful of compact thumbnails uploaded, then placeholders drawn")
        let compact = terminal.snapshot.uploads
        #expect(compact.allSatisfy { $0.columns == 5 && $0.rows == 2 }, "\(compact.map { ($0.columns, $0.rows) })")
        #expect(compact.allSatisfy { $0.width <= $0.columns * 10 && $0.height <= $0.rows * 20 })
        terminal.type("c")
        #expect(await terminal.wait { $0.uploads.dropFirst(compact.count).contains { $0.columns == 12 } },
                "the list's 12x5 pictures sent after c")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
    }
}
