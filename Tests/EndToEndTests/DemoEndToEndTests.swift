import Foundation
import Testing

/// The built binary in a real terminal (tmux): the embedded demo from start to quit. The demo is the SWAPI client
/// against the in-process demo server: 37 species in pages of 10, then 6 demo cases (rows 38-43).
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct DemoEndToEndTests {
    /// The demo with no simulated image latency, so a screen settles quickly, at the thumbnail size these tests were
    /// written for: the screens they check (two pages loaded at start, the rows a page moves) depend on it; the size
    /// the screen gives has tests of its own (ZoomEndToEndTests). The catalogue is cut to the species and the demo
    /// cases (`--rows 43`) so the whole list loads quickly, in SWAPI's pages of 10 (the demo's are 25);
    /// DemoDataEndToEndTests has the thousands of rows.
    static let fastDemo = ["demo", "--latency", "0", "--jitter", "0", "--page-delay", "50", "--thumb-size", "12x5",
                           "--rows", "43", "--page-size", "10"]

    func headerRow(_ lines: [String]) -> Int? {
        lines.first?.firstMatch(of: /\ (\d+) \/ \d+/).flatMap { Int($0.1) }
    }

    /// Spinner glyphs: a screen without them has every visible thumbnail settled.
    static let spinner = CharacterSet(charactersIn: "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

    func settled(_ lines: [String]) -> Bool {
        !lines.joined().unicodeScalars.contains { Self.spinner.contains($0) }
    }

    @Test func startShowsRowsWithThumbnailsAndQuitExitsZero() async throws {
        let tmux = try TmuxSession(Self.fastDemo)
        defer { tmux.close() }
        let lines = try await tmux.waitFor("the first rows with thumbnails") { lines in
            lines.first?.contains(" 1 / 20") == true && self.settled(lines)
        }
        #expect(lines[0].contains("Demo catalog"))
        #expect(lines.contains { $0.contains("Human") })
        #expect(lines.contains { $0.contains("Image from https://scikit-image.org scikit-image sample data") })
        #expect(lines.contains { $0.contains("All images from the demo server's Instant Answers") })
        // Thumbnails are drawn: the rows' left blocks are not blank.
        #expect(lines[1...3].allSatisfy { $0.prefix(14).contains { $0 != " " && $0 != "▌" } })
        #expect(try tmux.pane("alternate_on") == "1")
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
        #expect(try tmux.pane("alternate_on") == "0", "the terminal left the alternate screen")
    }

    @Test func jAndPageDownMoveTheSelection() async throws {
        let tmux = try TmuxSession(Self.fastDemo)
        defer { tmux.close() }
        try await tmux.waitFor(text: " 1 / 20")
        try tmux.send("j")
        try await tmux.waitFor(text: " 2 / 20")
        try tmux.send("PageDown")
        let lines = try await tmux.waitFor("a page further") { (self.headerRow($0) ?? 0) > 2 }
        let row = try #require(headerRow(lines))
        #expect(row >= 5)
        try tmux.send("k")
        try await tmux.waitFor(text: " \(row - 1) / ")
        try tmux.send("g")
        try await tmux.waitFor(text: " 1 / ")
    }

    @Test func enterOpensTheDetailAndEscapeReturnsToTheSameScreen() async throws {
        // Tall enough for the species' fields and the image state in the detail pane.
        let tmux = try TmuxSession(Self.fastDemo, columns: 100, rows: 45)
        defer { tmux.close() }
        try await tmux.waitFor(text: " 1 / 20")
        try tmux.send("j")
        // Read once it has stopped changing: a capture taken while the frame after `j` is being written shows the
        // new header over rows not yet redrawn (seen once in three runs), and the list after Esc is compared whole.
        try await tmux.waitForSteady("the list, settled") { lines in
            lines.first?.contains(" 2 / 20") == true && self.settled(lines)
        }
        let before = try tmux.screen()
        try tmux.send("Enter")
        // Waited for whole: tmux may capture a frame half written.
        let detail = try await tmux.waitFor("the detail pane") { lines in
            lines.first?.contains("item 2 / 20") == true
                && lines.contains { $0.contains("Classification: artificial") }
                && lines.contains { $0.contains("Abstract source: scikit-image sample data,") }
                // The row's own picture: the photo with the row's number on it (the URL wraps below "Image:").
                && lines.contains { $0.contains("http://127.0.0.1:") && $0.contains("/media/coffee.png?row=2") }
                && lines.contains { $0.contains("Attribution: Image from") }
        }
        #expect(detail[0].contains("item 2 / 20"))
        try await tmux.waitFor(text: "Image state: loaded")
        try tmux.send("Escape")
        // The screen is compared whole once it has stopped changing: tmux may capture a frame half written.
        let after: [String]
        do {
            after = try await tmux.waitFor("the list as it was") { lines in lines == before }
        } catch {
            let shown = before.joined(separator: "\n")
            Issue.record("the list before Enter was:\n\(shown)")
            throw error
        }
        #expect(after == before)
    }

    /// Holds PgDn until every page has loaded: each press moves a screen; at the last loaded row the next page is
    /// on its way.
    func loadEverything(_ tmux: TmuxSession) async throws -> [String] {
        var lines = try tmux.screen()
        var presses = 0
        while !lines[0].contains(/\ \/ 43\b/) && presses < 200 {
            try tmux.send("PageDown")
            presses += 1
            let before = lines[0]
            lines = try await tmux.waitFor("the screen to move") { $0[0] != before || $0.joined().contains("end of the list") }
        }
        return lines
    }

    @Test func holdingPageDownLoadsFurtherPagesToTheEnd() async throws {
        let tmux = try TmuxSession(Self.fastDemo)
        defer { tmux.close() }
        try await tmux.waitFor(text: " 1 / 20")
        var lines = try await loadEverything(tmux)
        #expect(lines[0].contains(/\ \/ 43\b/))
        // The end row may be on screen already when paging stops near the end: wait for G's own screen.
        try tmux.send("G")
        lines = try await tmux.waitFor("the last row selected and the end row") {
            $0[0].contains(" 43 / 43") && $0.joined().contains("end of the list: 43 items")
        }
        #expect(lines[0].contains(" 43 / 43"))
    }

    /// The demo's first screen says what it shows (each picture's number, s, --compare) until the first key.
    @Test func theFirstScreenExplainsItselfUntilTheFirstKey() async throws {
        let tmux = try TmuxSession(Self.fastDemo, columns: 120)
        defer { tmux.close() }
        // The note is there from the first frame; a key moves once the first rows are in.
        try await tmux.waitFor("the note and the first rows") { lines in
            lines.first?.contains(" 1 / ") == true
                && lines.contains { $0.contains("Each picture shows its row's number · s shows the slots") }
        }
        try tmux.send("j")
        try await tmux.waitFor("the keys instead") { lines in
            lines.contains { $0.contains("j/k move") } && !lines.joined().contains("Each picture shows")
        }
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func aResizeRedrawsAndKeepsTheSelection() async throws {
        let tmux = try TmuxSession(Self.fastDemo)
        defer { tmux.close() }
        try await tmux.waitFor(text: " 1 / 20")
        try tmux.send("j", "j", "j")
        try await tmux.waitFor(text: " 4 / 20")
        try tmux.resize(columns: 60, rows: 20)
        let small = try await tmux.waitFor("the 60x20 layout") { lines in
            lines.count >= 20 && lines[0].contains(" 4 / 20") && lines[18].contains("All images")
        }
        #expect(small[0].count <= 60)
        try tmux.resize(columns: 20, rows: 6)
        // tmux crops the old screen at once; the new layout is there when its short header and key line are (the
        // hint's short form that fits 20 columns).
        let tiny = try await tmux.waitFor("the 20x6 layout") { lines in
            lines.count >= 6 && lines[0].contains("ThumbTable") && lines[0].contains("4/20")
                && lines[5].contains("Enter open · ? help")
        }
        #expect(tiny[1...3].contains { $0.contains("▌") }, "the selected row is on screen")
        // 200x60 shows twice the rows, so the next page is asked for: the header may say 20 or 30 loaded.
        try tmux.resize(columns: 200, rows: 60)
        try await tmux.waitFor("the 200x60 layout") { lines in
            lines[0].contains(/\ 4 \/ (20|30)\b/) && lines[0].count > 150
        }
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func hostileTitlesAreShownWithTheirControlsVisible() async throws {
        let tmux = try TmuxSession(Self.fastDemo)
        defer { tmux.close() }
        try await tmux.waitFor(text: " 1 / 20")
        _ = try await loadEverything(tmux)
        try tmux.send("G")
        try await tmux.waitFor(text: " 43 / 43")
        // G selects row 43, the last item; three rows up is row 40.
        try tmux.send("k", "k", "k")
        try await tmux.waitFor(text: " 40 / 43")
        let lines = try await tmux.waitFor(text: "Hostile ^[[31mred^[[0m ^[]52;c;aGVsbG8=^G")
        #expect(lines[0].contains(" 40 / 43"), "the escape sequences did not move or clear anything")
        #expect(lines.contains { $0.contains("<U+009B>2J") })
        #expect(lines.contains { $0.contains("All images from") }, "the footer is still in place")
    }

    @Test func theDemoCasesShowWideTitlesAWrappedTitleAndFailingImages() async throws {
        let tmux = try TmuxSession(Self.fastDemo, columns: 100, rows: 60)
        defer { tmux.close() }
        try await tmux.waitFor(text: " 1 / ")
        _ = try await loadEverything(tmux)
        try tmux.send("G")
        let end = try await tmux.waitFor("the last rows, settled") { lines in
            lines[0].contains(" 43 / 43") && self.settled(lines) && lines.joined().contains("failed")
        }
        #expect(end.contains { $0.contains("An item without any image") })
        #expect(end.contains { $0.contains("no image") })
        #expect(end.contains { $0.contains("A truncated JPEG") })
        #expect(end.contains { $0.contains("✗") }, "the file that is not an image fails")
        // G selects row 43, the last item.
        try tmux.send("Enter")
        try await tmux.waitFor(text: "Designation: A corrupt image shows a failure")
        try await tmux.waitFor(text: "PNG data is damaged")
        try tmux.send("Escape")
        for _ in 0..<4 { try tmux.send("k") }
        let wide = try await tmux.waitFor(text: " 39 / 43")
        #expect(wide.contains { $0.contains("宇宙飛行士 Eileen Collins 🚀 ロケット and 커피 ☕") })
        // The long title (row 38) wraps over more than one line.
        #expect(wide.contains { $0.contains("A deliberately long title that goes on") })
        #expect(wide.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("wrap over several lines") || $0.contains("lines of the row") })
    }

    @Test func sigtermRestoresTheTerminal() async throws {
        let tmux = try TmuxSession(Self.fastDemo)
        defer { tmux.close() }
        try await tmux.waitFor(text: " 1 / 20")
        let pid = try #require(try tmux.programPID())
        kill(pid, SIGTERM)
        #expect(try await tmux.exitStatus() == 143)
        #expect(try tmux.pane("alternate_on") == "0")
        #expect(try tmux.pane("cursor_flag") == "1", "the cursor is visible again")
    }

    @Test(arguments: [SIGSEGV, SIGILL, SIGABRT])
    func aCrashStillRestoresTheTerminal(signal: Int32) async throws {
        // A crash (a Swift trap is SIGILL or SIGTRAP here) gets no chance to run Swift code; the async-signal-safe
        // handler restores the saved terminal modes and leaves the alternate screen before the default action.
        let tmux = try TmuxSession(Self.fastDemo)
        defer { tmux.close() }
        try await tmux.waitFor(text: " 1 / 20")
        let pid = try #require(try tmux.programPID())
        kill(pid, signal)
        #expect(try await tmux.exitStatus() == Int(128 + signal))
        #expect(try tmux.pane("alternate_on") == "0")
        #expect(try tmux.pane("cursor_flag") == "1", "the cursor is visible again")
    }

    @Test func ctrlCQuitsAndRestoresTheTerminal() async throws {
        let tmux = try TmuxSession(Self.fastDemo)
        defer { tmux.close() }
        try await tmux.waitFor(text: " 1 / 20")
        try tmux.send("C-c")
        #expect(try await tmux.exitStatus() == 130)
        #expect(try tmux.pane("alternate_on") == "0")
    }

    @Test func filterAndHelp() async throws {
        let tmux = try TmuxSession(Self.fastDemo)
        defer { tmux.close() }
        try await tmux.waitFor(text: " 1 / 20")
        try tmux.send("?")
        try await tmux.waitFor(text: "filter rows by title")
        try tmux.send("x")
        try tmux.send("/")
        try tmux.type("wook")
        let lines = try await tmux.waitFor(text: "/ 1 matching")
        #expect(lines.contains { $0.contains("Wookie") })
        try tmux.send("Escape")
        // Clearing the filter keeps the matching item (the 3rd) selected among all rows.
        try await tmux.waitFor(text: " 3 / ")
    }
}

/// Without a UTF-8 locale, and with a mouse.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct TerminalCapabilityEndToEndTests {
    @Test func aNonUTF8LocaleFallsBackToASCII() async throws {
        let tmux = try TmuxSession(DemoEndToEndTests.fastDemo, environment: ["LANG": "C", "LC_ALL": "C"])
        defer { tmux.close() }
        let lines = try await tmux.waitFor("the first rows, settled") { lines in
            lines.first?.contains(" 1 / 20") == true
                && lines[1...3].allSatisfy { $0.prefix(14).contains { $0 != " " && $0 != ">" } }
        }
        for line in lines {
            #expect(line.unicodeScalars.allSatisfy { $0.isASCII }, "non-ASCII on screen: \(line)")
        }
        #expect(lines[1].hasPrefix(">"), "the selection marker is ASCII")
        #expect(lines[2].contains("mammal . sentient . Galactic Basic"), "punctuation has an ASCII look-alike")
    }

    @Test func theWheelScrollsAClickSelectsADoubleClickOpens() async throws {
        let tmux = try TmuxSession(DemoEndToEndTests.fastDemo)
        defer { tmux.close() }
        try await tmux.waitFor(text: " 1 / 20")
        // xterm mouse reports (what screen-256color's kmous announces): ESC [ M, button+32, column+33, row+33. The
        // reports of one gesture go in one write, as a terminal sends them: typed one by one, a loaded machine spread
        // a double click's presses beyond the 400 ms that make it one.
        func mouse(_ reports: (button: Int, column: Int, row: Int)...) throws {
            let bytes = reports.flatMap { [27, 91, 77, $0.button + 32, $0.column + 33, $0.row + 33] }
            try tmux.type(String(decoding: bytes.map(UInt8.init), as: UTF8.self))
        }
        // Wheel down (button 65) scrolls three rows; the selection follows to stay on screen.
        try mouse((65, 20, 10))
        try await tmux.waitFor(text: " 4 / 20")
        // A click on the second row on screen (lines 7-12 hold row 5) selects it.
        try mouse((0, 30, 8), (3, 30, 8))
        try await tmux.waitFor(text: " 5 / 20")
        // A double click opens the detail pane (after the click above, which must not pair with its first press).
        try await Task.sleep(for: .milliseconds(450))
        try mouse((0, 30, 8), (3, 30, 8), (0, 30, 8), (3, 30, 8))
        try await tmux.waitFor(text: "item 5 / 20")
    }
}
