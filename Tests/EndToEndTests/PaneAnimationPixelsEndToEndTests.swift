import Codecs
import Foundation
import TestSupport
import Testing

/// Issue 30, item 3 in pixels: an animated GIF opened in the detail pane plays as pictures on a pty answering as a
/// sixel xterm, iTerm2, kitty 0.26.5 (direct placements) and kitty 0.35 (placeholders for the rows; the pane's
/// picture is a direct placement in every kitty). Several distinct frames arrive at the pane's cell, Space
/// stops them and plays them again, and once the pane is closed no frame is sent (and the process spends next to no
/// CPU); the row's thumbnail keeps the first frame.
@Suite(.serialized)
struct PaneAnimationPixelsEndToEndTests {
    /// A frame of the pane's picture as the terminal got it: where it was drawn and a hash of it (sixel, iTerm2), or
    /// kitty's frame number of the animation's image.
    struct Frame: Hashable {
        var row: Int
        var column: Int
        var picture: Int
    }

    /// The frames of pictures in `bytes` from `offset`: sixel and iTerm2 pictures at their cells; kitty's frame
    /// changes (`a=a,...,c=N`) with the image id as the place.
    static func frames(in bytes: [UInt8], from offset: Int, kitty: Bool) -> [Frame] {
        guard kitty else {
            return PixelThumbnailsPtyEndToEndTests.drawn(in: bytes, from: offset)
                .map { Frame(row: $0.row, column: $0.column, picture: $0.bytes) }
        }
        let text = String(decoding: bytes[offset...], as: UTF8.self)
        return text.matches(of: /\e_Ga=a,i=(\d+),s=1,c=(\d+)/).compactMap { match in
            guard let id = Int(match.1), let number = Int(match.2) else { return nil }
            return Frame(row: id, column: -1, picture: number)
        }
    }

    /// A new folder holding only `bar.gif` (`AnimationEndToEndTests.steppingBar`); the caller removes it.
    static func barFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-anim-px-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(AnimationEndToEndTests.steppingBar).write(to: folder.appendingPathComponent("bar.gif"))
        return folder
    }

    /// The built binary browsing `folder` at 100x30 on a pty answering as `persona`.
    static func browse(_ folder: URL, as persona: PtyTerminal.Persona,
                       pixels: (width: Int, height: Int)? = nil) throws -> PtyTerminal {
        try PtyTerminal(program: try TmuxSession.binary(), arguments: ["browse", folder.path, "--no-disk-cache"],
                        environment: ["COLORTERM": "truecolor"], columns: 100, rows: 30, pixels: pixels,
                        persona: persona)
    }

    /// Browses `folder` on `persona`, opens the pane on its GIF and waits for `distinct` distinct frames there; returns
    /// the terminal (the caller kills it) and where its output stood at Enter.
    static func playing(_ folder: URL, as persona: PtyTerminal.Persona, distinct: Int = 3,
                        pixels: (width: Int, height: Int)? = nil) async throws -> (PtyTerminal, Int) {
        let terminal = try browse(folder, as: persona, pixels: pixels)
        #expect(await terminal.wait { $0.text.contains("bar.gif") })
        if !persona.speaksKitty {
            // The row's thumbnail first: drawn after the Enter, it would pass for one of the pane's frames (seen
            // under load: a picture at the row's cell among the frames at the pane's).
            #expect(await terminal.wait { !PixelThumbnailsPtyEndToEndTests.drawn(in: $0.output).isEmpty },
                    "the row's thumbnail")
        }
        let beforePane = terminal.snapshot.output.count
        terminal.type("\r")
        #expect(await terminal.wait { Set(frames(in: $0.output, from: beforePane, kitty: persona.speaksKitty)
            .map(\.picture)).count >= distinct }, "the animation plays")
        return (terminal, beforePane)
    }

    /// Kitty frame data (`a=f`) or frame changes (`a=a`) from `offset`.
    static func kittyAnimationCommands(in bytes: [UInt8], from offset: Int) -> Int {
        let text = String(decoding: bytes[offset...], as: UTF8.self)
        return text.matches(of: /\e_Ga=[fa],/).count
    }

    @Test(arguments: ["sixel", "iterm2", "kitty 0.26.5", "kitty"])
    func anAnimatedGIFPlaysInThePaneInPixelsPausesAndStopsWhenClosed(_ name: String) async throws {
        let persona: PtyTerminal.Persona = switch name {
        case "sixel": .sixel
        case "iterm2": .iterm2
        case "kitty": .kitty
        default: .kittyDirect
        }
        let kitty = persona.speaksKitty
        let folder = try Self.barFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let terminal = try Self.browse(folder, as: persona)
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.text.contains("bar.gif") })
        await PixelThumbnailsPtyEndToEndTests.settle(terminal)
        let thumbnails = PixelThumbnailsPtyEndToEndTests.drawn(in: terminal.snapshot.output)
        let thumbnailPlaces = Set(thumbnails.map { [$0.row, $0.column] })
        #expect(kitty || !thumbnails.isEmpty, "the row's thumbnail in pixels")

        // Enter: the pane's still picture, then frames, all at the pane's place, three of them distinct.
        let beforePane = terminal.snapshot.output.count
        terminal.type("\r")
        #expect(await terminal.wait { Set(Self.frames(in: $0.output, from: beforePane, kitty: kitty)
            .map(\.picture)).count >= 3 }, "three distinct frames in the pane")
        let playing = Self.frames(in: terminal.snapshot.output, from: beforePane, kitty: kitty)
        let animation = try #require(playing.first).row
        #expect(Set(playing.map { [$0.row, $0.column] }).count == 1, "every frame at one place: \(playing)")
        if kitty {
            let placements = terminal.snapshot.placements
            #expect(placements.count == 1 && placements.allSatisfy {
                $0.key.placement == KittyEndToEndTests.panePlacement && $0.key.image == UInt32(animation)
            }, "the animation's image alone, at the pane's placement: \(placements)")
        } else {
            #expect(playing.allSatisfy { !thumbnailPlaces.contains([$0.row, $0.column]) },
                    "in the pane, not at the row's thumbnail: \(playing), \(thumbnails)")
        }

        // Space: the frames stop (a frame already on its way may land), then Space plays them again.
        terminal.type(" ")
        #expect(await Self.framesStop(terminal, kitty: kitty), "no frame for 4 of the frames' delays after Space")
        let paused = terminal.snapshot.output.count
        terminal.type(" ")
        #expect(await terminal.wait { !Self.frames(in: $0.output, from: paused, kitty: kitty).isEmpty },
                "the frames again after a second Space")

        // Esc closes the pane: once the list is back, nothing of the animation is sent, and no CPU goes to it.
        let beforeClose = terminal.snapshot.output.count
        terminal.type("\u{1B}")
        #expect(await terminal.wait { snapshot in
            if kitty { return !snapshot.placements.contains { $0.key.placement == KittyEndToEndTests.panePlacement } }
            return PixelThumbnailsPtyEndToEndTests.drawn(in: snapshot.output, from: beforeClose)
                .contains { thumbnailPlaces.contains([$0.row, $0.column]) }
        }, "the list's thumbnail again")
        await PixelThumbnailsPtyEndToEndTests.settle(terminal)
        let closed = terminal.snapshot.output.count
        let pid = terminal.pid
        let cpuBefore = try DecodeCancellationEndToEndTests.cpuSeconds(pid)
        let sentAfter = await terminal.waitQuietly(timeout: .seconds(1)) { snapshot in
            kitty ? Self.kittyAnimationCommands(in: snapshot.output, from: closed) > 0
                : !PixelThumbnailsPtyEndToEndTests.drawn(in: snapshot.output, from: closed).isEmpty
        }
        let spent = try DecodeCancellationEndToEndTests.cpuSeconds(pid) - cpuBefore
        #expect(!sentAfter, "no picture bytes in the second after the pane closed")
        #expect(spent < 0.1, "\(spent) s of CPU in the second after the pane closed")
        if kitty {
            #expect(terminal.snapshot.placementEvents.contains(.deleted(image: UInt32(animation), placement: nil,
                                                                        freesData: true)),
                    "the animation's image deleted when the pane closed")
        } else {
            // The row keeps the first frame: its thumbnail after Esc is the one drawn before Enter. A frame sent
            // before the program read the Esc may land between the key and the list (seen under load: one frame
            // at the pane's place, then the row's thumbnail); none comes once the list is back.
            let sinceEsc = PixelThumbnailsPtyEndToEndTests.drawn(in: terminal.snapshot.output, from: beforeClose)
            let listBack = sinceEsc.firstIndex { thumbnailPlaces.contains([$0.row, $0.column]) } ?? sinceEsc.endIndex
            let landed = sinceEsc[..<listBack], back = sinceEsc[listBack...]
            #expect(landed.allSatisfy { [$0.row, $0.column] == [playing[0].row, playing[0].column] },
                    "before the list, only the pane's frames: \(landed) against \(playing[0])")
            #expect(!back.isEmpty && back.allSatisfy { picture in thumbnails.contains { $0 == picture } },
                    "only the row's thumbnail, its first frame: \(back) against \(thumbnails)")
        }
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
    }

    /// Ctrl-Z gives the screen back, and kitty forgets the animation's frames (its image is deleted with the others):
    /// when the program has the screen again the animation plays again, as a new image, from its first frame.
    @Test func afterCtrlZAndFgTheKittyAnimationPlaysAgain() async throws {
        let folder = try Self.barFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (terminal, beforePane) = try await Self.playing(folder, as: .kittyDirect, distinct: 2)
        defer { kill(terminal.pid, SIGKILL) }
        let first = try #require(Self.frames(in: terminal.snapshot.output, from: beforePane, kitty: true).first).row

        let beforeStop = terminal.snapshot.output.count
        terminal.type("\u{1A}")
        #expect(await terminal.wait { $0.placementEvents.contains(.deleted(image: UInt32(first), placement: nil,
                                                                           freesData: true)) },
                "the animation's image deleted as the screen is given back")
        // The program runs in a process group without job control here (no shell), so the kernel drops its stop
        // signal and it carries on at once, as after fg: the screen taken again and drawn whole.
        #expect(await terminal.wait { snapshot in
            let again = Self.frames(in: snapshot.output, from: beforeStop, kitty: true).filter { $0.row != first }
            return Set(again.map(\.picture)).count >= 3
        }, "three distinct frames of a new image after fg")
        let again = Self.frames(in: terminal.snapshot.output, from: beforeStop, kitty: true).filter { $0.row != first }
        #expect(Set(again.map(\.row)).count == 1, "one new animation: \(again)")
        let image = try #require(again.first).row
        #expect(terminal.snapshot.placements.map(\.key) == [.init(image: UInt32(image),
                                                                   placement: KittyEndToEndTests.panePlacement)],
                "the new animation alone at the pane's placement")
        terminal.type("q")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
    }

    /// The help over a playing pane takes its picture off the screen, and with it the animation's frames: when the
    /// help closes, the animation plays again at the pane's place (it froze on its first frame for good before).
    @Test(arguments: ["sixel", "kitty 0.26.5"])
    func theAnimationPlaysAgainWhenTheHelpOverItCloses(_ name: String) async throws {
        let persona: PtyTerminal.Persona = name == "sixel" ? .sixel : .kittyDirect
        let kitty = persona.speaksKitty
        let folder = try Self.barFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (terminal, beforePane) = try await Self.playing(folder, as: persona)
        defer { kill(terminal.pid, SIGKILL) }
        let places = Set(Self.frames(in: terminal.snapshot.output, from: beforePane, kitty: kitty)
            .map { [$0.row, $0.column] })

        terminal.type("?")
        #expect(await terminal.wait { $0.text.contains("show or hide this help") }, "the help")
        #expect(await Self.framesStop(terminal, kitty: kitty), "no frame under the help")
        let beforeClose = terminal.snapshot.output.count
        terminal.type("?")
        #expect(await terminal.wait { snapshot in
            let again = Self.frames(in: snapshot.output, from: beforeClose, kitty: kitty)
            return Set(again.map(\.picture)).count >= 3
        }, "three distinct frames again once the help closed")
        let again = Self.frames(in: terminal.snapshot.output, from: beforeClose, kitty: kitty)
        #expect(kitty || Set(again.map { [$0.row, $0.column] }) == places, "at the pane's place: \(again)")
        terminal.type("q")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
    }

    /// A resize that leaves the pane's picture less room than the GIF's 96x64 pixels: the frames go on, smaller, at
    /// the picture's new place, and no frame of the old size follows them.
    @Test func aResizeWhilePlayingGoesOnWithFramesOfTheNewSize() async throws {
        let folder = try Self.barFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (terminal, _) = try await Self.playing(folder, as: .sixel, pixels: (600, 390))
        defer { kill(terminal.pid, SIGKILL) }

        // 40x12 cells of 6x13: the pane's picture goes on top, 3 rows high, 39 pixels.
        let beforeResize = terminal.snapshot.output.count
        terminal.resize(columns: 40, rows: 12, pixels: (240, 156))
        #expect(await terminal.wait { snapshot in
            let after = Self.sixelHeights(in: snapshot.output, from: beforeResize).drop { $0 >= 64 }
            return Set(XtermSixelPtyEndToEndTests.sixels(in: snapshot.output, from: beforeResize)
                .suffix(after.count).map(\.bytes)).count >= 3
        }, "three distinct frames of the new size")
        let after = Self.sixelHeights(in: terminal.snapshot.output, from: beforeResize).drop { $0 >= 64 }
        #expect(after.allSatisfy { $0 < 64 }, "no frame of the old size after the first of the new: \(after)")
        let places = PixelThumbnailsPtyEndToEndTests.drawn(in: terminal.snapshot.output, from: beforeResize)
            .suffix(after.count)
        #expect(Set(places.map { [$0.row, $0.column] }).count == 1, "at one place: \(places)")
        terminal.type("q")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
    }

    /// The declared pixel heights of the sixels in `output` from `offset`.
    static func sixelHeights(in output: [UInt8], from offset: Int) -> [Int] {
        XtermSixelPtyEndToEndTests.sixels(in: output, from: offset).compactMap {
            try? SixelDecoder.decode($0.bytes).declaredHeight
        }
    }

    /// Waits for a stretch of 600 ms (four of the frames' 150 ms) without a frame, within the deadline.
    static func framesStop(_ terminal: PtyTerminal, kitty: Bool) async -> Bool {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < EndToEnd.deadline {
            let from = terminal.snapshot.output.count
            let moved = await terminal.waitQuietly(timeout: .milliseconds(600)) {
                !frames(in: $0.output, from: from, kitty: kitty).isEmpty
            }
            if !moved { return true }
        }
        return false
    }
}
