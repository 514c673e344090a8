import Foundation
import Testing

/// Thumbnails in pixels in the list and the grid, with the built binary on a pty answering as xterm -ti vt340
/// (sixel), iTerm2 or kitty 0.26.5 (direct placements): each picture at its text art's cell, sent once per screen
/// it settles on, sent again (the same bytes: encoded once) when its row comes back, nothing while idle or while
/// the rows fly past, none left after q.
@Suite(.serialized)
struct PixelThumbnailsPtyEndToEndTests {
    /// A picture drawn at a cell: where (row and column from 0), and a hash of its bytes (the same picture encoded
    /// once is the same bytes each time it is sent).
    struct Drawn: Hashable, CustomStringConvertible {
        var row: Int
        var column: Int
        var bytes: Int

        var description: String { "picture \(bytes) at \(row),\(column)" }
    }

    /// Every sixel or iTerm2 picture in `bytes` from `offset`, each drawn at the cell a CUP put the cursor on
    /// just before it (after the cursor was saved: `ESC 7 ESC [ r ; c H`).
    static func drawn(in bytes: [UInt8], from offset: Int = 0) -> [Drawn] {
        var found: [Drawn] = []
        let text = String(decoding: bytes[offset...], as: UTF8.self)
        for match in text.matches(of: /\e7\e\[(\d+);(\d+)H(\eP[^\e]*\e\\|\e\]1337;File=[^\u{07}]*\u{07})/) {
            guard let row = Int(match.1), let column = Int(match.2) else { continue }
            var hasher = Hasher()
            hasher.combine(String(match.3))
            found.append(Drawn(row: row - 1, column: column - 1, bytes: hasher.finalize()))
        }
        return found
    }

    static let pageDown = "\u{1B}[6~", pageUp = "\u{1B}[5~"

    /// Starts the fast demo at 100x30 in `layout` on a pty answering as `persona` and waits for the first screen's
    /// `count` pictures.
    static func start(_ persona: PtyTerminal.Persona, layout: String = "list", count: Int,
                      extra: [String] = []) async throws -> PtyTerminal {
        let terminal = try PtyTerminal(program: try TmuxSession.binary(),
                                       arguments: DemoEndToEndTests.fastDemo + ["--layout", layout] + extra,
                                       environment: ["COLORTERM": "truecolor"], columns: 100, rows: 30,
                                       persona: persona)
        #expect(await terminal.wait { $0.text.contains("1 / ") })
        #expect(await terminal.wait { drawn(in: $0.output).count >= count }, "the first screen's pictures")
        return terminal
    }

    /// Waits until `count` pictures were drawn after `offset`; they are returned in the order sent.
    static func next(_ count: Int, on terminal: PtyTerminal, after offset: Int,
                     sourceLocation: SourceLocation = #_sourceLocation) async -> [Drawn] {
        await terminal.wait(sourceLocation: sourceLocation) { drawn(in: $0.output, from: offset).count >= count }
        return drawn(in: terminal.snapshot.output, from: offset)
    }

    /// Waits until nothing arrives for a second (the screen settled), up to the deadline.
    static func settle(_ terminal: PtyTerminal) async {
        let start = ContinuousClock.now
        while !(await staysQuiet(terminal, for: .seconds(1))), ContinuousClock.now - start < EndToEnd.deadline {}
    }

    /// No byte at all for `quiet`: what an idle screen sends.
    static func staysQuiet(_ terminal: PtyTerminal, for quiet: Duration) async -> Bool {
        let before = terminal.snapshot.output.count
        return await !terminal.waitQuietly(timeout: quiet) { $0.output.count > before }
    }

    @Test(arguments: ["list", "grid"])
    func sixelThumbnailsFollowTheScreenAndAreEncodedOnce(_ layout: String) async throws {
        // 100x30: the list shows 4 whole rows of 12x5 thumbnails; the grid 2 lines of pictures.
        let terminal = try await Self.start(.sixel, layout: layout, count: layout == "list" ? 4 : 1)
        defer { kill(terminal.pid, SIGKILL) }
        await Self.settle(terminal)
        let first = Self.drawn(in: terminal.snapshot.output)
        let perScreen = first.count
        #expect(perScreen == 4 || layout == "grid", "\(perScreen) pictures")
        #expect(Set(first.map { [$0.row, $0.column] }).count == perScreen, "each at a cell of its own")
        #expect(first.allSatisfy { $0.row >= 1 && $0.row + 5 <= 27 }, "inside the list area, off the last rows")
        if layout == "list" { #expect(first.allSatisfy { (2...8).contains($0.column) }, "in the thumbnail column") }
        #expect(await Self.staysQuiet(terminal, for: .seconds(2)), "an idle screen sends nothing")

        // The selection moves (curses may scroll the text): whatever is sent is at a thumbnail's cell.
        var mark = terminal.snapshot.output.count
        terminal.type("j")
        await Self.settle(terminal)
        // Text art is centred in its box, so a picture narrower or shorter than the box starts a little inside it.
        let inThumbnailColumn = { (picture: Drawn) in
            layout == "grid" || (2...8).contains(picture.column) && (1...22).contains(picture.row)
        }
        #expect(Self.drawn(in: terminal.snapshot.output, from: mark).allSatisfy(inThumbnailColumn))

        // A page down: the next screen's pictures (a row may have none), at the cells of thumbnails.
        mark = terminal.snapshot.output.count
        terminal.type(Self.pageDown)
        await Self.settle(terminal)
        let second = Self.drawn(in: terminal.snapshot.output, from: mark)
        #expect(!second.isEmpty)
        #expect(second.allSatisfy(inThumbnailColumn), "the thumbnails' cells")
        if layout == "list" {
            #expect(Set(second.map(\.bytes)).isDisjoint(with: Set(first.map(\.bytes))), "other pictures")
        }

        // Back up: the first screen's pictures again, byte for byte (encoded once), each at its own cell.
        mark = terminal.snapshot.output.count
        terminal.type(Self.pageUp)
        await Self.settle(terminal)
        let again = Self.drawn(in: terminal.snapshot.output, from: mark)
        if layout == "list" {
            for picture in first { #expect(again.contains(picture), "\(picture): the same again") }
        } else {
            // The grid's page up need not come back to the same first line: the pictures are ones sent before.
            let before = Self.drawn(in: Array(terminal.snapshot.output[..<mark]))
            #expect(Set(again.map(\.bytes)).isSubset(of: Set(before.map(\.bytes))))
        }
        #expect(await Self.staysQuiet(terminal, for: .seconds(2)), "an idle screen sends nothing")

        // The pane: its picture; back to the list: the list's pictures again (the pane's pixels repainted away).
        mark = terminal.snapshot.output.count
        terminal.type("\r")
        let pane = await Self.next(1, on: terminal, after: mark)
        #expect(pane.count == 1, "the pane's picture alone")
        mark = terminal.snapshot.output.count
        terminal.type("\u{1B}")
        await Self.settle(terminal)
        let back = Self.drawn(in: terminal.snapshot.output, from: mark)
        let beforePane = layout == "list" ? first : again
        for picture in beforePane { #expect(back.contains(picture), "\(picture) again after the pane") }
        // A zoom, then a resize: pictures of the new size, at cells of the new screen.
        mark = terminal.snapshot.output.count
        terminal.type("+")
        await Self.settle(terminal)
        let zoomed = Self.drawn(in: terminal.snapshot.output, from: mark)
        #expect(!zoomed.isEmpty && Set(zoomed.map(\.bytes)).isDisjoint(with: Set(first.map(\.bytes))),
                "the zoomed size's pictures")
        mark = terminal.snapshot.output.count
        terminal.resize(columns: 80, rows: 24, pixels: (480, 312))
        await Self.settle(terminal)
        let resized = Self.drawn(in: terminal.snapshot.output, from: mark)
        #expect(!resized.isEmpty && resized.allSatisfy { $0.row >= 1 && $0.column < 80 }, "\(resized)")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
    }

    @Test func aHeldPageDownSendsPicturesOnlyForTheScreenItStopsOn() async throws {
        let terminal = try await Self.start(.sixel, count: 4)
        defer { kill(terminal.pid, SIGKILL) }
        _ = await Self.staysQuiet(terminal, for: .milliseconds(500))
        let mark = terminal.snapshot.output.count
        // A held key repeats about every 30 ms. On a loaded machine the keys can come slower than that, or the
        // program, short of CPU, can keep a screen up longer: a screen that stood still for a dwell or more (100 ms,
        // `PrefetchWindow.dwell`) while the key was held is one the key stopped on, whose pictures are due. Those
        // are counted from the program's output: no byte for 100 ms while the keys were being typed.
        let start = ContinuousClock.now
        for _ in 0..<8 {
            terminal.type(Self.pageDown)
            try await Task.sleep(for: .milliseconds(30))
        }
        let end = ContinuousClock.now
        await Self.settle(terminal)
        let snapshot = terminal.snapshot
        let times = snapshot.arrivals.filter { $0.offset >= mark }.map(\.at).filter { $0 >= start && $0 <= end }
        let stills = zip(times, times.dropFirst()).filter { $1 - $0 >= .milliseconds(100) }.count
        let sent = Self.drawn(in: snapshot.output, from: mark)
        // The first press is a single key (its screen may get its pictures); the flown-past ones get none: 4 a screen.
        #expect(sent.count <= 4 * (2 + stills),
                "\(sent.count) pictures for 8 screens: only the first's, the last's and \(stills) that stood still")
        #expect(!sent.isEmpty, "the screen it stopped on has its pictures")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
    }

    @Test func iTerm2ThumbnailsAreInlineImagesAtTheirCells() async throws {
        let terminal = try await Self.start(.iterm2, count: 4)
        defer { kill(terminal.pid, SIGKILL) }
        await Self.settle(terminal)
        let images = terminal.snapshot.inlineImages
        #expect(images.count >= 4)
        #expect(images.allSatisfy { $0.row != nil && (2...8).contains($0.column ?? -1) }, "in the thumbnail column")
        #expect(await Self.staysQuiet(terminal, for: .seconds(2)), "an idle screen sends nothing")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
    }

    @Test func kittyDirectPlacementsMoveWithTheirRowsAndLeaveWithTheScreen() async throws {
        let terminal = try PtyTerminal(program: try TmuxSession.binary(), arguments: DemoEndToEndTests.fastDemo,
                                       environment: ["COLORTERM": "truecolor"], columns: 100, rows: 30,
                                       persona: .kittyDirect)
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.placements.count >= 4 }, "a placement per row on screen")
        // The first screen settles (the demo's rows and their pictures arrive at their own pace) before the idle
        // screen is timed: four placements can be on screen while the fifth row's picture is still on its way.
        await Self.settle(terminal)
        let first = terminal.snapshot.placements
        #expect(first.allSatisfy { $0.key.placement != 0 && $0.row != nil && (2...8).contains($0.column ?? -1) })
        #expect(Set(first.map(\.row)).count == first.count, "each at its own row")
        let uploads = terminal.snapshot.uploads.count
        #expect(await Self.staysQuiet(terminal, for: .seconds(2)))
        // A page down and back: the rows come back to the same images, placed again, nothing uploaded again.
        terminal.type(Self.pageDown)
        let firstImages = Set(first.map(\.key.image))
        #expect(await terminal.wait { !$0.placements.isEmpty
            && Set($0.placements.map(\.key.image)).isDisjoint(with: firstImages) }, "the next screen's images")
        await Self.settle(terminal)
        let afterDown = terminal.snapshot.uploads.count
        terminal.type(Self.pageUp)
        #expect(await terminal.wait { $0.placements.map(\.key).sorted { "\($0)" < "\($1)" }
            == first.map(\.key).sorted { "\($0)" < "\($1)" } })
        #expect(terminal.snapshot.uploads.count == afterDown, "uploaded once: \(uploads) then \(afterDown)")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
        #expect(terminal.snapshot.placements.isEmpty, "no placement left after q")
    }
}
