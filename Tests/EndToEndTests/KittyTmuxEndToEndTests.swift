import Foundation
import Graphics
import TestSupport
import Testing

/// kitty thumbnails through tmux, with tmux as the screen model: the program runs in a tmux pane (passthrough on,
/// the client's terminal with RGB), tmux's client runs on a `PtyTerminal` answering as kitty, and
/// `capture-pane -e` tells which cell carries which image id.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct KittyTmuxEndToEndTests {
    /// One placeholder cell on the captured screen.
    struct PlaceholderCell: Equatable {
        var x: Int, y: Int
        var id: UInt32
        var row: Int, column: Int
    }

    /// A tmux server whose pane runs thumbtable once a kitty-answering client is attached.
    final class Setup {
        let socket = "tt-kitty-\(getpid())-\(UUID().uuidString.prefix(8))"
        let config: String
        let client: PtyTerminal

        init(_ arguments: [String], persona: PtyTerminal.Persona) async throws {
            config = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).conf").path
            try """
            set -g remain-on-exit on
            set -g status off
            set -g default-terminal tmux-256color
            set -g allow-passthrough on
            set -as terminal-features ',*:RGB'
            """.write(toFile: config, atomically: true, encoding: .utf8)
            // The test runner's NO_COLOR must not reach the program: its ids are colours.
            let program = try TmuxSession.commandLine(arguments,
                                                      environment: ["COLORTERM": "truecolor", "NO_COLOR": ""])
            // The program starts once the client is attached, so its questions reach the client's terminal.
            let script = "tmux wait-for go; exec \(program)"
            _ = try Self.tmux(socket, ["-f", config, "new-session", "-d", "-s", "tt", "-x", "100", "-y", "30",
                                   "sh -c \(TmuxSession.quote(script))"])
            client = try PtyTerminal(program: "/usr/bin/tmux", arguments: ["-L", socket, "attach", "-t", "tt"],
                                     environment: ["TERM": "xterm-256color"], columns: 100, rows: 30, persona: persona)
            // The client has drawn the pane: it is attached.
            guard await client.wait(until: { $0.output.count > 200 }) else {
                throw TmuxSession.TmuxError(description: "the tmux client did not attach")
            }
            try tmux(["wait-for", "-S", "go"])
        }

        deinit {
            _ = try? tmux(["kill-server"])
            unlink(config)
        }

        @discardableResult
        func tmux(_ arguments: [String]) throws -> String {
            try Self.tmux(socket, arguments)
        }

        static func tmux(_ socket: String, _ arguments: [String]) throws -> String {
            let (status, text) = try TmuxSession.run(["tmux", "-L", socket] + arguments)
            guard status == 0 else { throw TmuxSession.TmuxError(description: "tmux \(arguments) failed: \(text)") }
            return text
        }

        /// The placeholder cells on screen now, and the screen's plain text.
        func screen() throws -> (cells: [PlaceholderCell], text: [String]) {
            let captured = try tmux(["capture-pane", "-e", "-p", "-t", "tt"])
            return KittyTmuxEndToEndTests.parse(captured)
        }

        /// Waits for the screen to satisfy `condition` (checked as tmux's client receives bytes); on timeout, an issue
        /// with the screen, the ids on it and the images the client got.
        /// Returns the screen that satisfied it (nil on timeout): the test checks that one, not a later capture
        /// that could catch a frame half written.
        func waitForScreen(_ what: String, sourceLocation: SourceLocation = #_sourceLocation,
                           _ condition: @escaping ([PlaceholderCell], [String]) -> Bool) async throws
            -> (cells: [PlaceholderCell], text: [String])?
        {
            let deadline = ContinuousClock.now + EndToEnd.deadline
            var last: (cells: [PlaceholderCell], text: [String]) = ([], [])
            while ContinuousClock.now < deadline {
                last = try screen()
                if condition(last.cells, last.text) { return last }
                // Woken by the next bytes tmux sends its client (any redraw), or after a second at most.
                let seen = client.snapshot.output.count
                await client.waitQuietly(timeout: .seconds(1)) { $0.output.count > seen }
            }
            let ids = Set(last.cells.map(\.id)).sorted().map(String.init).joined(separator: ", ")
            Issue.record("""
                timed out waiting for \(what); the screen (# for a placeholder cell) was:
                \(last.text.joined(separator: "\n"))
                ids on it: \(ids.isEmpty ? "none" : ids)
                what tmux's client got: \(client.snapshot.report)
                """, sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Reads `capture-pane -e -p`: SGR foreground colours tracked, each U+10EEEE with its diacritics a cell.
    static func parse(_ captured: String) -> (cells: [PlaceholderCell], text: [String]) {
        var cells: [PlaceholderCell] = []
        var lines: [String] = []
        for (y, line) in captured.components(separatedBy: "\n").enumerated() {
            var foreground: UInt32 = 0
            var x = 0
            var plain = ""
            var scalars = Array(line.unicodeScalars)[...]
            while let scalar = scalars.popFirst() {
                if scalar == "\u{1B}", scalars.first == "[" {
                    scalars.removeFirst()
                    var parameters = ""
                    while let next = scalars.popFirst(), next != "m" { parameters.unicodeScalars.append(next) }
                    foreground = sgrForeground(parameters, current: foreground)
                    continue
                }
                if scalar.value == 0x10EEEE {
                    var marks: [Int] = []
                    while let next = scalars.first, let index = diacriticIndex(next) {
                        marks.append(index)
                        scalars.removeFirst()
                    }
                    if marks.count >= 2 {
                        let high = marks.count >= 3 ? UInt32(marks[2]) << 24 : 0
                        cells.append(PlaceholderCell(x: x, y: y, id: high | foreground, row: marks[0],
                                                     column: marks[1]))
                    }
                    plain += "#"
                    x += 1
                    continue
                }
                plain.unicodeScalars.append(scalar)
                x += 1
            }
            lines.append(plain)
        }
        return (cells, lines)
    }

    /// The foreground after an SGR's parameters: `38;2;r;g;b` (as tmux writes it), or reset.
    static func sgrForeground(_ parameters: String, current: UInt32) -> UInt32 {
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? -1 }
        var i = 0
        var foreground = current
        while i < fields.count {
            switch fields[i] {
            case 0, 39, -1: foreground = 0
            case 38 where i + 4 < fields.count && fields[i + 1] == 2:
                foreground = UInt32(fields[i + 2]) << 16 | UInt32(fields[i + 3]) << 8 | UInt32(fields[i + 4])
                i += 4
            case 38 where i + 2 < fields.count && fields[i + 1] == 5:
                foreground = UInt32(fields[i + 2])
                i += 2
            case 48 where i + 1 < fields.count:
                i += fields[i + 1] == 2 ? 4 : 2
            default: break
            }
            i += 1
        }
        return foreground
    }

    /// kitty's row/column diacritics by code point (the table's values are checked against kitty's own in
    /// GraphicsTests).
    static let diacriticIndexes: [UInt32: Int] = Dictionary(uniqueKeysWithValues: (0...KittyPlaceholder.maxIndex).map {
        (KittyPlaceholder.diacritic($0).value, $0)
    })

    static func diacriticIndex(_ scalar: Unicode.Scalar) -> Int? {
        diacriticIndexes[scalar.value]
    }

    /// Checks that the cells of every id form one picture: each cell at its row/column in the image, from one
    /// origin; returns the origins by id.
    static func pictures(_ cells: [PlaceholderCell]) -> [UInt32: (x: Int, y: Int)]? {
        var origins: [UInt32: (x: Int, y: Int)] = [:]
        for cell in cells {
            let origin = (x: cell.x - cell.column, y: cell.y - cell.row)
            if let known = origins[cell.id], known != origin { return nil }
            origins[cell.id] = origin
        }
        return origins
    }

    /// The fast demo with its 43 rows in one page: a fast scroll then ends at the same rows whenever the keys come
    /// (with pages of 10, a PageDown that outran the next page stopped at the last loaded row, so the rows on screen
    /// after the scroll, and how many of them have a picture, depended on the machine's speed).
    /// Where `PageDown j j PageDown` three times, then `PageUp k`, end in that list at 100x30.
    static let rowAfterScrolling = 26

    static let demo = ["demo", "--latency", "0", "--jitter", "0", "--page-delay", "50", "--thumb-size", "12x5",
                       "--rows", "43", "--page-size", "43"]

    @Test func thumbnailsThroughTmuxAreKittyImagesInTheirCellsAndStayRightAfterFastScrolling() async throws {
        let setup = try await Setup(Self.demo, persona: .kitty)
        let first = try #require(try await setup.waitForScreen("four thumbnails or more") { cells, _ in
            Set(cells.map(\.id)).count >= 4
        })
        #expect(await setup.client.wait { Set(first.cells.map(\.id)).isSubset(of: Set($0.uploads.map(\.id))) },
                "every id on screen was uploaded")
        #expect(Self.pictures(first.cells) != nil, "each id's cells form one picture")

        // Fast scrolling: pages down and back, keys as fast as tmux sends them.
        for _ in 0..<3 { try setup.tmux(["send-keys", "-t", "tt", "PageDown", "j", "j", "PageDown"]) }
        try setup.tmux(["send-keys", "-t", "tt", "PageUp", "k"])
        // With the 43 rows in one page, the keys end on the same row whatever the machine's pace.
        let after = try #require(try await setup.waitForScreen("row \(Self.rowAfterScrolling), its pictures shown")
        { cells, text in
            text.first?.contains(" \(Self.rowAfterScrolling) / 43") == true && Set(cells.map(\.id)).count >= 4
                && !text.joined().unicodeScalars.contains { DemoEndToEndTests.spinner.contains($0) }
        })
        let origins = try #require(Self.pictures(after.cells), "each id's cells form one picture")
        #expect(await setup.client.wait { Set(after.cells.map(\.id)).isSubset(of: Set($0.uploads.map(\.id))) })
        // No two rows show one picture, and no picture shows where another row's was deleted.
        let positions = origins.values.map { "\($0.x),\($0.y)" }
        #expect(Set(positions).count == origins.count)
        let deleted = Set(setup.client.snapshot.deletes.map(\.id))
        #expect(Set(origins.keys).isDisjoint(with: deleted))

        try setup.tmux(["send-keys", "-t", "tt", "q"])
        let exited = await setup.client.wait { snapshot in
            Set(snapshot.uploads.map(\.id)).isSubset(of: Set(snapshot.deletes.map(\.id)))
        }
        #expect(exited, "every image deleted at exit, through tmux")
    }

    @Test func anImageTheTerminalRejectsLeavesItsRowInTextArt() async throws {
        let setup = try await Setup(Self.demo, persona: .kitty(rejecting: [1]))
        let rejected = await setup.client.wait { $0.uploads.count >= 1 } ? setup.client.snapshot.uploads[0].id : 0
        // The first screen has four pictures (the fifth row has none): three in pixels, the rejected one as text art,
        // whose lines hold drawn cells where the others hold placeholders (`#` here). The rejected row is drawn
        // again after the terminal's answer comes, so the wait is for that screen.
        func artLines(_ text: [String]) -> Int {
            text.dropFirst().prefix(24).filter { line in
                !line.contains("#") && line.prefix(14).filter { $0 != " " && $0 != "▌" }.count >= 8
            }.count
        }
        let screen = try #require(try await setup.waitForScreen("three pictures, the rejected one as text art") {
            cells, text in
            let ids = Set(cells.map(\.id))
            return ids.count >= 3 && !ids.contains(rejected) && artLines(text) >= 3
        })
        #expect(Set(screen.cells.map(\.id)).count == 3)
        try setup.tmux(["send-keys", "-t", "tt", "q"])
    }
}
