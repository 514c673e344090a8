import Foundation
import TestSupport
import Testing

/// Detection and kitty thumbnails with the built binary on a pty that answers as a terminal would (`PtyTerminal`):
/// kitty, a sixel xterm, a silent terminal, one that answers garbage, one that answers too late.
@Suite(.serialized)
struct KittyEndToEndTests {
    static let demo = DemoEndToEndTests.fastDemo
    static let esc: UInt8 = 0x1B

    func start(_ persona: PtyTerminal.Persona, _ arguments: [String] = demo,
               environment: [String: String] = ["COLORTERM": "truecolor"]) throws -> PtyTerminal {
        try PtyTerminal(program: try TmuxSession.binary(), arguments: arguments, environment: environment,
                        columns: 100, rows: 30, persona: persona)
    }

    /// Where `needle` last starts in `haystack`, or nil.
    static func lastOffset(of needle: String, in haystack: [UInt8]) -> Int? {
        let bytes = Array(needle.utf8)
        guard haystack.count >= bytes.count else { return nil }
        for start in stride(from: haystack.count - bytes.count, through: 0, by: -1)
        where haystack[start..<start + bytes.count].elementsEqual(bytes) { return start }
        return nil
    }

    static func firstOffset(of needle: String, in haystack: [UInt8], from: Int = 0) -> Int? {
        let bytes = Array(needle.utf8)
        guard haystack.count >= bytes.count, from <= haystack.count - bytes.count else { return nil }
        for start in from...(haystack.count - bytes.count)
        where haystack[start..<start + bytes.count].elementsEqual(bytes) { return start }
        return nil
    }

    /// The SGR forms a 24-bit foreground carrying `id` takes (ncurses' direct entries use the colon form).
    static func colorForms(of id: UInt32) -> [String] {
        let (r, g, b) = (id >> 16 & 0xFF, id >> 8 & 0xFF, id & 0xFF)
        return ["38:2::\(r):\(g):\(b)m", "38;2;\(r);\(g);\(b)m"]
    }

    static let placeholder = "\u{10EEEE}"

    /// The placement id of the detail pane's picture (`TerminalPictures`).
    static let panePlacement: UInt32 = 0xFFFF

    /// The detail pane's picture in kitty: one image placed at its cell (not a virtual placement: the pane does not
    /// scroll it), fitted to the text art's footprint in 10x20-pixel cells, sent once, and deleted when the pane
    /// closes, before the screen is repainted.
    @Test func theDetailPanesPictureIsAKittyImagePlacedAtItsCellAndDeletedWhenThePaneCloses() async throws {
        let terminal = try start(.kitty)
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.text.contains("1 / ") })
        terminal.type("\r")
        // Uploaded (`a=t`), then placed at its cell with the pane's placement id.
        let placed = await terminal.wait { $0.placements.contains { $0.key.placement == Self.panePlacement } }
        #expect(placed, "the pane's picture is uploaded and placed")
        let placement = try #require(terminal.snapshot.placements.first { $0.key.placement == Self.panePlacement })
        let pane = try #require(terminal.snapshot.uploads.first { $0.id == placement.key.image })
        #expect(!pane.virtual)
        let perPixel = pane.format == 24 ? 3 : 4
        #expect(pane.pixels?.count == pane.width * pane.height * perPixel, "chunks join to whole pixels")
        let (columns, rows) = (placement.columns, placement.rows)
        #expect(pane.width <= columns * 10 && pane.height <= rows * 20)
        // The picture is never enlarged, so it may be smaller than its cells; kitty scales it onto them, so its
        // shape must be theirs.
        let shape = Double(pane.width) / Double(pane.height), cells = Double(columns * 10) / Double(rows * 20)
        #expect(abs(shape / cells - 1) < 0.15, "\(pane.width)x\(pane.height) on \(columns)x\(rows) cells")
        #expect(columns > 12 || rows > 5, "larger than a thumbnail: \(columns)x\(rows)")
        #expect(!terminal.snapshot.uploads.map(\.id).filter { $0 != pane.id }.contains(pane.id))
        // Scrolling the pane's text sends the frame, not the picture again.
        let before = terminal.snapshot.output.count
        terminal.type("j")
        #expect(await terminal.wait { $0.output.count > before })
        terminal.type("q")
        let deleted = await terminal.wait { snapshot in snapshot.deletes.contains { $0.id == pane.id } }
        #expect(deleted, "the pane's image is deleted when the pane closes")
        #expect(terminal.snapshot.uploads.filter { $0.id == pane.id }.count == 1, "sent once")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
    }

    @Test func kittyGetsUploadsOfTheThumbnailsPixelSizeDrawnWithPlaceholdersAndDeletedAtExit() async throws {
        let terminal = try start(.kitty)
        defer { kill(terminal.pid, SIGKILL) }
        // The first screen's thumbnails, each uploaded and then drawn: its id's colour and placeholders after it.
        let drawn = await terminal.wait { snapshot in
            snapshot.uploads.count >= 3 && snapshot.uploads.allSatisfy { upload in
                Self.colorForms(of: upload.id).contains { Self.firstOffset(of: $0, in: snapshot.output,
                                                                           from: upload.endOffset) != nil }
            } && Self.lastOffset(of: Self.placeholder, in: snapshot.output) ?? 0 > snapshot.uploads[0].endOffset
        }
        #expect(drawn, "uploads followed by their placeholder cells")
        let uploads = terminal.snapshot.uploads
        for upload in uploads {
            #expect(upload.virtual, "a virtual placement for Unicode placeholders")
            let perPixel = upload.format == 24 ? 3 : 4
            #expect(upload.pixels?.count == upload.width * upload.height * perPixel, "chunks join to whole pixels")
            // Fitted inside columns x 10 by rows x 20 pixels (the terminal's cells), filling one side.
            #expect(upload.width <= upload.columns * 10 && upload.height <= upload.rows * 20)
            #expect(upload.width == upload.columns * 10 || upload.height == upload.rows * 20)
            #expect(upload.columns <= 12 && upload.rows <= 5, "the text art's footprint (--thumb-size 12x5)")
        }
        #expect(Set(uploads.map(\.id)).count == uploads.count, "one id per picture")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
        let end = terminal.snapshot
        let deleted = Set(end.deletes.map(\.id))
        #expect(Set(end.uploads.map(\.id)).isSubset(of: deleted), "every image deleted at exit")
        let leave = try #require(Self.lastOffset(of: "\u{1B}[?1049l", in: end.output))
        #expect(end.deletes.allSatisfy { $0.offset < leave }, "deleted before leaving the alternate screen")
    }

    @Test func ctrlZDeletesTheImagesBeforeGivingTheScreenBackAndResumingSendsThemAgain() async throws {
        let terminal = try start(.kitty)
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.uploads.count >= 3 })
        let before = terminal.snapshot
        let shown = Set(before.uploads.map(\.id))
        // The program is a session leader on its own pty, so its stop is ignored (an orphaned process group) and it
        // takes the screen back at once: what a shell's `fg` would bring.
        terminal.type("\u{1A}")
        let start = before.output.count
        let resent = await terminal.wait { snapshot in
            guard let leave = Self.firstOffset(of: "\u{1B}[?1049l", in: snapshot.output, from: start) else {
                return false
            }
            return shown.isSubset(of: Set(snapshot.deletes.map(\.id)))
                && snapshot.uploads.filter { $0.endOffset > leave }.count >= 3
        }
        #expect(resent, "deleted on suspend, sent again on resume")
        let after = terminal.snapshot
        let leave = try #require(Self.firstOffset(of: "\u{1B}[?1049l", in: after.output, from: start))
        #expect(after.deletes.filter { shown.contains($0.id) }.allSatisfy { $0.offset < leave },
                "deleted while the alternate screen that holds them is up")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
    }

    @Test func aZoomSendsThePicturesAgainAtTheNewSize() async throws {
        let terminal = try start(.kitty, ["demo", "--latency", "0", "--jitter", "0", "--page-delay", "50",
                                          "--rows", "43", "--page-size", "10"])
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.uploads.count >= 3 })
        let before = terminal.snapshot.uploads
        // Sized to the screen, the thumbnails are as large as they get here: `-` makes them smaller.
        let narrowest = before.map(\.columns).min() ?? 0
        terminal.type("-")
        #expect(await terminal.wait { $0.uploads.dropFirst(before.count).contains { $0.columns < narrowest } },
                "smaller pictures sent for the smaller thumbnails")
        let zoomed = terminal.snapshot.uploads.dropFirst(before.count)
        #expect(zoomed.allSatisfy { $0.width <= $0.columns * 10 && $0.height <= $0.rows * 20 })
        #expect(Set(zoomed.map(\.id)).isDisjoint(with: Set(before.map(\.id))), "a new image, not the old one")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
    }

    @Test func aFontSizeChangeSendsThePicturesAgainForTheNewCells() async throws {
        // The window's pixel fields agree with the 10x20 cells kitty's persona reports; then the font doubles: the
        // same 100x30 cells, 20x40 pixels each.
        let terminal = try PtyTerminal(program: try TmuxSession.binary(), arguments: Self.demo,
                                       environment: ["COLORTERM": "truecolor"], columns: 100, rows: 30,
                                       pixels: (1000, 600), persona: .kitty)
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.uploads.count >= 3 })
        let before = terminal.snapshot.uploads
        #expect(before.allSatisfy { $0.width <= $0.columns * 10 && $0.height <= $0.rows * 20 })
        terminal.resize(columns: 100, rows: 30, pixels: (2000, 1200))
        // The change deletes every image held; what is uploaded after the first delete is for the new cells.
        let ids = Set(before.map(\.id))
        let changeOffset: @Sendable (PtyTerminal.Snapshot) -> Int? = { snapshot in
            snapshot.deletes.first { ids.contains($0.id) }?.offset
        }
        let resent = await terminal.wait { snapshot in
            guard let change = changeOffset(snapshot) else { return false }
            return snapshot.uploads.filter { $0.endOffset > change }.count >= 3
        }
        #expect(resent, "the old images deleted, new ones sent")
        let end = terminal.snapshot
        guard let change = changeOffset(end) else { return }
        let old = end.uploads.filter { $0.endOffset < change }
        #expect(Set(old.map(\.id)).isSubset(of: Set(end.deletes.map(\.id))), "every image of the old cells deleted")
        let after = end.uploads.filter { $0.endOffset > change }
        for upload in after {
            #expect(upload.width <= upload.columns * 20 && upload.height <= upload.rows * 40)
            #expect(upload.width == upload.columns * 20 || upload.height == upload.rows * 40,
                    "fitted to the new cells: \(upload.width)x\(upload.height) in \(upload.columns)x\(upload.rows)")
        }
        #expect(Set(after.map(\.id)).isDisjoint(with: Set(old.map(\.id))), "new images, not the old ones")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
    }

    /// A terminal that answers a quarter of a second after each query (ssh to another continent, or a loaded
    /// machine) still gets pictures: detection waited 80 ms and fell back to text, and these tests with it when the
    /// machine was busy.
    /// The first answer at once, then one every 400 ms: DA1 comes 2 s after the queries, twice detection's first
    /// budget. A terminal that has begun answering is waited for, so it still gets kitty thumbnails.
    @Test func aTerminalThatAnswersSlowlyStillGetsKittyThumbnails() async throws {
        let terminal = try start(.slow(.milliseconds(400)))
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.uploads.count >= 3 }, "thumbnails uploaded")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
    }

    /// (A sixel terminal gets sixel pictures: `PixelThumbnailsPtyEndToEndTests`.)
    @Test(arguments: [PtyTerminal.Persona.silent, .garbage, .late])
    func terminalsWithoutKittyGetTextArtAndNoGraphicsBytes(_ persona: PtyTerminal.Persona) async throws {
        let terminal = try start(persona)
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.text.contains("1 / ") }, "the table runs, no hang")
        if case .late = persona {
            // The answers arrive once the table is up: they must not be taken as keys (DA1's `?` opens the help).
            #expect(await terminal.wait { $0.repliesWritten >= 3 })
        }
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0, "q quits: no late answer became a key")
        let output = terminal.snapshot.output
        let screen = try #require(Self.firstOffset(of: "\u{1B}[?1049h", in: output))
        let after = Array(output[screen...])
        #expect(Self.firstOffset(of: "\u{1B}_G", in: after) == nil, "no kitty command once the table is up")
        #expect(Self.firstOffset(of: "\u{1B}P", in: after) == nil, "no sixel or passthrough")
        #expect(Self.firstOffset(of: "\u{1B}]1337;", in: after) == nil, "no iTerm2 image")
        #expect(Self.firstOffset(of: Self.placeholder, in: after) == nil)
        #expect(terminal.snapshot.uploads.isEmpty)
    }

    @Test func graphicsTextAsksTheTerminalNothing() async throws {
        let terminal = try start(.kitty, Self.demo + ["--graphics", "text"])
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.text.contains("1 / ") })
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
        let output = terminal.snapshot.output
        #expect(Self.firstOffset(of: "\u{1B}_G", in: output) == nil)
        #expect(Self.firstOffset(of: "\u{1B}[c", in: output) == nil)
        #expect(Self.firstOffset(of: "\u{1B}[16t", in: output) == nil)
    }

    /// A reply longer than the reply filter keeps (XTVERSION's form, 4,100 and 5,000 bytes) with a key at its end,
    /// arriving once the table is up: its tail is swallowed to the terminator, not read as keys.
    @Test(arguments: [(5000, "q"), (4100, "o"), (5000, "\u{07}q")])
    func aLongLateReplyBecomesNoKeys(_ length: Int, _ tail: String) async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tt-reply-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let record = scratch.appendingPathComponent("opened.txt")
        let script = scratch.appendingPathComponent("browser.sh")
        try "#!/bin/sh\necho \"$1\" >> \(record.path)\n".write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        let terminal = try start(.kitty, environment: ["COLORTERM": "truecolor", "BROWSER": "sh " + script.path])
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.text.contains("1 / ") })
        // `\u{07}q`: a DCS ended by BEL, then a q typed after it, which must quit.
        let endsWithBEL = tail.hasPrefix("\u{07}")
        terminal.type("\u{1B}P>|" + String(repeating: "x", count: length) + tail + (endsWithBEL ? "" : "\u{1B}\\"))
        if endsWithBEL {
            #expect(await terminal.exitStatus() == 0, "the q after the BEL is a key")
            return
        }
        // An o typed after the reply: the program still runs, and starts the browser once, for this o only.
        terminal.type("o")
        #expect(await terminal.wait { $0.text.contains("opened the ") || $0.exitStatus != nil })
        #expect(terminal.snapshot.exitStatus == nil, "the reply's \(tail) was no key")
        var lines: [Substring] = []
        let clock = ContinuousClock(), end = clock.now + .seconds(60)
        while lines.isEmpty && clock.now < end {
            lines = ((try? String(contentsOf: record, encoding: .utf8)) ?? "").split(separator: "\n")
            if lines.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(lines.count == 1, "the browser ran once: \(lines)")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
    }

    /// A window whose pixel fields make 512x1024-pixel cells (51,200 x 30,720 for 100x30 cells: no screen is that
    /// large), with kitty forced: the size is not believed, so no picture is sized by it; text art, and a note.
    @Test func aCellSizeNoScreenHasIsNotBelieved() async throws {
        let terminal = try PtyTerminal(program: try TmuxSession.binary(), arguments: Self.demo + ["--graphics", "kitty"],
                                       environment: ["COLORTERM": "truecolor"], columns: 100, rows: 30,
                                       pixels: (51_200, 30_720), persona: .silent)
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.text.contains("did not tell its cell size") && $0.text.contains("1 / ") },
                "pictures as text, and why")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
        #expect(terminal.snapshot.uploads.isEmpty, "\(terminal.snapshot.uploads.map { "\($0.width)x\($0.height)" })")
    }
}
