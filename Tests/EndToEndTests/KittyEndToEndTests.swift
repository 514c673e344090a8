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

    @Test(arguments: [PtyTerminal.Persona.silent, .garbage, .sixel, .late(.milliseconds(400))])
    func terminalsWithoutKittyGetTextArtAndNoGraphicsBytes(_ persona: PtyTerminal.Persona) async throws {
        let terminal = try start(persona)
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.text.contains("row 1 of ") }, "the table runs, no hang")
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
        #expect(Self.firstOffset(of: Self.placeholder, in: after) == nil)
        #expect(terminal.snapshot.uploads.isEmpty)
    }

    @Test func graphicsTextAsksTheTerminalNothing() async throws {
        let terminal = try start(.kitty, Self.demo + ["--graphics", "text"])
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.text.contains("row 1 of ") })
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
        let output = terminal.snapshot.output
        #expect(Self.firstOffset(of: "\u{1B}_G", in: output) == nil)
        #expect(Self.firstOffset(of: "\u{1B}[c", in: output) == nil && Self.firstOffset(of: "\u{1B}[16t", in: output) == nil)
    }
}
