import Codecs
import Foundation
import Pixels
import TestSupport
import Testing

/// The detail pane's picture as sixel bytes, with the built binary on a pty that answers as xterm -ti vt340 does
/// (`PtyTerminal.Persona.sixel`: 6x13-pixel cells, sixel in DA1): the bytes decode to a picture of the pane's
/// pixel size, are placed at the picture's cell, are not sent again while the picture stays, and the screen is
/// pane's lines repainted when it closes.
@Suite(.serialized)
struct XtermSixelPtyEndToEndTests {
    static let sixelStart = "\u{1B}P9;1;0q"

    /// Every complete sixel in `bytes` from `offset`: where it starts, and its bytes.
    static func sixels(in bytes: [UInt8], from offset: Int = 0) -> [(offset: Int, bytes: [UInt8])] {
        var found: [(Int, [UInt8])] = []
        var from = offset
        while let start = KittyEndToEndTests.firstOffset(of: sixelStart, in: bytes, from: from),
              let end = KittyEndToEndTests.firstOffset(of: "\u{1B}\\", in: bytes, from: start) {
            found.append((start, Array(bytes[start..<end + 2])))
            from = end + 2
        }
        return found
    }

    @Test func theDetailPanesPictureIsSentAsASixelOnceAndItsLinesRepaintedWhenThePaneCloses() async throws {
        let terminal = try PtyTerminal(program: try TmuxSession.binary(), arguments: DemoEndToEndTests.fastDemo,
                                       environment: ["COLORTERM": "truecolor"], columns: 100, rows: 30,
                                       persona: .sixel)
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.text.contains("1 / ") })
        // The first screen's thumbnails first, and the pane's picture told from them by its size: a row's picture
        // arriving after the Enter would pass for the pane's (as it did in the iTerm2 test below).
        #expect(await terminal.wait { Self.sixels(in: $0.output).count >= 4 }, "the first screen's thumbnails")
        let thumbnails = try Self.sixels(in: terminal.snapshot.output).map { try SixelDecoder.decode($0.bytes) }
        let thumbnailWidth = thumbnails.map(\.declaredWidth).max() ?? 0
        let thumbnailHeight = thumbnails.map(\.declaredHeight).max() ?? 0
        let beforePane = terminal.snapshot.output.count
        terminal.type("\r")
        let paneSixels: @Sendable ([UInt8]) -> [(offset: Int, bytes: [UInt8])] = { output in
            Self.sixels(in: output, from: beforePane).filter { sixel in
                guard let picture = try? SixelDecoder.decode(sixel.bytes) else { return false }
                return picture.declaredWidth > thumbnailWidth || picture.declaredHeight > thumbnailHeight
            }
        }
        let sent = await terminal.wait { !paneSixels($0.output).isEmpty }
        #expect(sent, "the pane's picture arrives as a sixel")
        let output = terminal.snapshot.output
        let sixel = try #require(paneSixels(output).first)
        let picture = try SixelDecoder.decode(sixel.bytes)
        // The pane at 100x30 gives the picture a box of up to 50 columns by 26 rows; in 6x13-pixel cells that is
        // 300x338 pixels, and the picture fills one side of its text art's footprint.
        #expect(picture.declaredWidth <= 300 && picture.declaredHeight <= 338)
        #expect(picture.declaredWidth >= 120 || picture.declaredHeight >= 130, "\(picture.declaredWidth)x\(picture.declaredHeight)")
        #expect(picture.declaredWidth % 6 == 0 || picture.declaredHeight % 13 == 0, "a side fills whole cells")
        #expect(picture.paletteCount > 16, "a photo's palette")
        // Placed at its cell with the cursor saved before and restored after.
        let placement = String(decoding: output[max(beforePane, sixel.offset - 16)..<sixel.offset], as: UTF8.self)
        #expect(placement.range(of: "\u{1B}7\u{1B}\\[[0-9]+;[0-9]+H$", options: .regularExpression) != nil, "\(placement.debugDescription)")
        #expect(KittyEndToEndTests.firstOffset(of: "\u{1B}8", in: output, from: sixel.offset) != nil)

        // Scrolling the pane's text redraws the frame but not the picture.
        let afterSixel = terminal.snapshot.output.count
        terminal.type("j")
        #expect(await terminal.wait { $0.output.count > afterSixel }, "the frame after j")
        // q closes the pane: its lines are repainted (which erases the sixel in xterm), the list's thumbnails come
        // back in pixels, and the pane's picture is not sent again.
        let beforeClose = terminal.snapshot.output.count
        terminal.type("q")
        #expect(await terminal.wait { PixelThumbnailsPtyEndToEndTests.drawn(in: $0.output, from: beforeClose)
            .contains { $0.column < 10 } }, "the list's thumbnails again")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
        #expect(Self.sixels(in: terminal.snapshot.output, from: beforePane).count(where: { $0.bytes == sixel.bytes })
            == 1, "the pane's picture sent once: not again while it stayed")
    }

    @Test func withGraphicsITerm2ThePanesPictureIsAnInlineJPEGOfItsFootprint() async throws {
        // The pty answers the cell size (6x13) as xterm does; --graphics iterm2 names the protocol.
        let terminal = try PtyTerminal(program: try TmuxSession.binary(),
                                       arguments: DemoEndToEndTests.fastDemo + ["--graphics", "iterm2"],
                                       environment: ["COLORTERM": "truecolor"], columns: 100, rows: 30,
                                       persona: .sixel)
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.text.contains("1 / ") })
        // The first screen's thumbnails first, and the pane's picture told from them by its footprint: a row's
        // picture arriving after the Enter passed for the pane's once (a clean-clone CI run: three "pane" pictures,
        // all 12x5, the rows').
        #expect(await terminal.wait { $0.inlineImages.count >= 4 }, "the first screen's thumbnails")
        let footprint: @Sendable (PtyTerminal.InlineImage) -> [String?] = {
            [$0.arguments["width"], $0.arguments["height"]]
        }
        let thumbnails = Set(terminal.snapshot.inlineImages.map(footprint))
        let beforePane = terminal.snapshot.output.count
        terminal.type("\r")
        let head = "\u{1B}]1337;File=inline=1;"
        let isPane: @Sendable (PtyTerminal.InlineImage) -> Bool = { image in
            image.offset > beforePane && !thumbnails.contains(footprint(image))
        }
        #expect(await terminal.wait { $0.inlineImages.contains(where: isPane) },
                "the pane's picture arrives as an iTerm2 inline image")
        let paneImage = try #require(terminal.snapshot.inlineImages.first(where: isPane))
        // Its bytes: the inline image after the Enter with the pane's footprint.
        let output = terminal.snapshot.output
        var found: (arguments: String, payload: String)?
        var from = beforePane
        while found == nil, let start = KittyEndToEndTests.firstOffset(of: head, in: output, from: from),
              let end = output[start...].firstIndex(of: 0x07) {
            let text = String(decoding: output[start..<end], as: UTF8.self)
            if let (arguments, payload) = text.split(separator: ":", maxSplits: 1).map(String.init).splitPair(),
               arguments.contains("width=\(paneImage.arguments["width"] ?? "");"),
               arguments.contains("height=\(paneImage.arguments["height"] ?? "");") {
                found = (arguments, payload)
            }
            from = end
        }
        let (arguments, payload) = try #require(found, "the pane's inline image in the output")
        let file = try #require(Data(base64Encoded: payload))
        #expect(arguments.contains("size=\(file.count);"))
        #expect(Array(file.prefix(3)) == [0xFF, 0xD8, 0xFF], "a JPEG")
        let picture = try ImageDecoder.decode([UInt8](file)).bitmap
        let widthMatch = try #require(arguments.firstMatch(of: /width=([0-9]+);/))
        let heightMatch = try #require(arguments.firstMatch(of: /height=([0-9]+);/))
        let columns = try #require(Int(widthMatch.1)), rows = try #require(Int(heightMatch.1))
        // The picture is fitted into its footprint's pixels (6x13 cells), filling one side.
        #expect(picture.width <= columns * 6 && picture.height <= rows * 13, "\(picture.width)x\(picture.height) in \(columns)x\(rows)")
        #expect(picture.width > (columns - 1) * 6 || picture.height > (rows - 1) * 13)
        terminal.type("q")
        terminal.type("q")
        #expect(await terminal.exitStatus() == 0)
        let pane = terminal.snapshot.inlineImages.filter { $0.arguments["width"] == "\(columns)" && $0.arguments["height"] == "\(rows)" }
        #expect(pane.count == 1, "sent once")
    }
}

private extension Array where Element == String {
    /// The two halves of a split in two, or nil.
    func splitPair() -> (String, String)? { count == 2 ? (self[0], self[1]) : nil }
}
