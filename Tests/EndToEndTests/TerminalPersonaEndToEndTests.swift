import Foundation
import TestSupport
import Testing

/// The test terminal's personas themselves: kitty without placeholders (Debian's kitty 0.26.5) and iTerm2, as a
/// program sees them and as they record what it sends. First with a shell script that writes exact commands, so
/// what the terminal records can be checked byte for byte; then with the built binary.
@Suite(.serialized)
struct TerminalPersonaEndToEndTests {
    /// Runs `script` (printf's escapes) on a pty answering as `persona`, until it ends.
    func run(_ script: String, as persona: PtyTerminal.Persona) async throws -> PtyTerminal.Snapshot {
        let terminal = try PtyTerminal(program: "/bin/sh", arguments: ["-c", script], columns: 80, rows: 24,
                                       persona: persona)
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.exitStatus() == 0)
        return terminal.snapshot
    }

    /// An upload (`a=t`), a placement at a cell, its move, a second placement of the same image, and deletes by
    /// image and placement id: the terminal keeps what is on screen after each, by id.
    @Test func placementsMovesAndDeletesAreRecordedByID() async throws {
        let pixels = Data([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]).base64EncodedString()
        let script = """
            printf '\\033_Ga=t,f=24,s=2,v=2,i=7,q=2;\(pixels)\\033\\\\'
            printf '\\033[3;5H\\033_Ga=p,i=7,p=1,c=12,r=5,C=1,q=2\\033\\\\'
            printf '\\033[9;5H\\033_Ga=p,i=7,p=1,c=12,r=5,C=1,q=2\\033\\\\'
            printf 'x\\033_Ga=p,i=7,p=2,c=12,r=5,C=1,q=2\\033\\\\'
            printf '\\033_Ga=d,d=i,i=7,p=1,q=2\\033\\\\'
            """
        let end = try await run(script, as: .kittyDirect)
        #expect(end.uploads.count == 1 && end.uploads[0].pixels?.count == 12 && !end.uploads[0].virtual)
        let first = PtyTerminal.PlacementKey(image: 7, placement: 1), second = PtyTerminal.PlacementKey(image: 7,
                                                                                                        placement: 2)
        guard end.placementEvents.count == 4 else {
            Issue.record("four events expected: \(end.placementEvents)")
            return
        }
        #expect(end.placementEvents[0] == .placed(.init(key: first, row: 2, column: 4, columns: 12, rows: 5,
                                                        offset: 0)))
        #expect(end.placementEvents[1] == .moved(.init(key: first, row: 8, column: 4, columns: 12, rows: 5,
                                                       offset: 0)))
        // Text written after the CUP moved the cursor: where the second placement landed is not known.
        #expect(end.placementEvents[2] == .placed(.init(key: second, row: nil, column: nil, columns: 12, rows: 5,
                                                        offset: 0)))
        #expect(end.placementEvents[3] == .deleted(image: 7, placement: 1, freesData: false))
        #expect(end.placements.map(\.key) == [second], "one left on screen")
    }

    /// kitty 0.26.5 answers the plain query and drops one with a key it does not know, unanswered: as its parser
    /// does. So it gets direct placements (`a=t`, then `a=p` per picture), never a virtual placement.
    @Test func kittyWithoutPlaceholdersIgnoresTheirKey() async throws {
        let terminal = try PtyTerminal(program: try TmuxSession.binary(),
                                       arguments: DemoEndToEndTests.fastDemo, environment: ["COLORTERM": "truecolor"],
                                       columns: 100, rows: 30, persona: .kittyDirect)
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.text.contains("1 / ") })
        #expect(terminal.snapshot.repliesWritten == 4, "kitty query, cell size, version, DA1: not the U=1 query")
        // The list's thumbnails are direct placements; the detail pane covers them and places its own picture.
        #expect(await terminal.wait { !$0.placements.isEmpty }, "the thumbnails placed")
        terminal.type("\r")
        #expect(await terminal.wait { $0.placements.map(\.key.placement) == [KittyEndToEndTests.panePlacement] },
                "the pane's picture alone")
        terminal.type("q")
        #expect(await terminal.wait { !$0.placements.isEmpty
            && !$0.placements.contains { $0.key.placement == KittyEndToEndTests.panePlacement } },
                "closing the pane deletes its placement by id; the thumbnails come back")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
        let end = terminal.snapshot
        #expect(end.uploads.allSatisfy { !$0.virtual }, "no virtual placements: the terminal has no placeholders")
        #expect(KittyEndToEndTests.firstOffset(of: KittyEndToEndTests.placeholder, in: end.output) == nil)
        #expect(end.placements.isEmpty, "none left after q")
    }

    /// iTerm2 lists sixel, but gets its own inline images: the detail pane's picture is one, sized in cells, and
    /// no kitty or sixel bytes are sent.
    @Test func iTerm2GetsInlineImagesInThePane() async throws {
        let terminal = try PtyTerminal(program: try TmuxSession.binary(),
                                       arguments: DemoEndToEndTests.fastDemo, environment: ["COLORTERM": "truecolor"],
                                       columns: 100, rows: 30, persona: .iterm2)
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.text.contains("1 / ") })
        // The list's thumbnails are inline images too: the pane's is the first after Enter of a footprint none of
        // them has. (A thumbnail sent just before Enter was read came first once; so did a late one in a sibling
        // test, `XtermSixelPtyEndToEndTests`, after a wait for its screen's thumbnails.)
        #expect(await terminal.wait { $0.inlineImages.count >= 4 }, "the first screen's thumbnails")
        let footprint: @Sendable (PtyTerminal.InlineImage) -> [String?] = {
            [$0.arguments["width"], $0.arguments["height"]]
        }
        let thumbnails = Set(terminal.snapshot.inlineImages.map(footprint))
        let beforePane = terminal.snapshot.output.count
        terminal.type("\r")
        let isPane: @Sendable (PtyTerminal.InlineImage) -> Bool = { image in
            image.offset > beforePane && !thumbnails.contains(footprint(image))
        }
        #expect(await terminal.wait { $0.inlineImages.contains(where: isPane) },
                "the pane's picture as an iTerm2 image")
        let image = try #require(terminal.snapshot.inlineImages.first(where: isPane))
        #expect(image.arguments["inline"] == "1" && (image.payloadBytes ?? 0) > 100)
        #expect(Int(image.arguments["width"] ?? "") ?? 0 > 12, "\(image.arguments)")
        terminal.type("q")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
        let output = terminal.snapshot.output
        #expect(KittyEndToEndTests.firstOffset(of: "\u{1B}_Ga=T", in: output) == nil)
        #expect(KittyEndToEndTests.firstOffset(of: "\u{1B}Pq", in: output) == nil)
    }
}
