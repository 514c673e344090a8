@testable import App
import Cells
import Codecs
import Foundation
import Graphics
import Pipeline
import Pixels
import Table
import TestSupport
import Testing

/// The adapter's decisions for the detail pane's animation in pixels, on a recording sender: frames come from a real
/// pipeline's animation of a GIF served over 127.0.0.1 and are encoded by the real sixel and kitty encoders; the
/// pane's frame number says which is due.
@MainActor
@Suite struct PaneAnimationPicturesTests {
    /// Four frames of a white bar stepping across a black 40x20 picture, 100 ms each.
    static let bar = TestGIF.animated(width: 40, height: 20, frames: 4, delay: 10,
                                      palette: [(0, 0, 0), (255, 255, 255)]) { frame, x, _ in
        x / 10 == frame ? 1 : 0
    }

    let record = TerminalPicturesTests.Record()
    let cells = CellSize(columns: 8, rows: 2)

    func make(_ form: any PictureProtocol) -> TerminalPictures {
        let record = self.record
        return TerminalPictures(form: form, cellPixels: CellPixelSize(width: 6, height: 12), fetch: { _, box in
            Bitmap(width: box.width, height: box.height, fill: RGBA(r: 0, g: 0, b: 0))
        }, send: { record.writes.append($0) })
    }

    func pane(_ url: URL, frame: Int) -> ScreenPicture {
        ScreenPicture(owner: .pane, url: url, footprint: PictureFootprint(x: 1, y: 3, columns: cells.columns,
                                                                          rows: cells.rows), frame: frame)
    }

    /// One frame drawn: the lines to repaint, and what was written during it.
    /// What was written to the terminal after the first `start` writes, as text.
    func written(since start: Int) -> String {
        record.writes[start...].map { String(decoding: $0, as: UTF8.self) }.joined()
    }

    func frame(_ pictures: TerminalPictures, _ wanted: [ScreenPicture]) -> (lines: [Range<Int>], sent: String) {
        let before = record.writes.count
        let lines = pictures.frameWill(show: wanted, flying: false)
        pictures.frameDrawn()
        #expect(pictures.wrongPictures == 0)
        return (lines, written(since: before))
    }

    /// Runs `body` with the pipeline's animation of `bar` at its URL, served over 127.0.0.1.
    func withAnimation(_ body: (AnimationSource, URL) async throws -> Void) async throws {
        let server = try await TestHTTPServer.start()
        do {
            server.serve("/bar.gif", .ok(Self.bar, contentType: "image/gif"))
            let url = server.url("/bar.gif")
            let pipeline = ImagePipeline(configuration: .init(), loader: DataLoader())
            let source = try await pipeline.animation(ThumbnailRequest(url: url, size: cells, options: .init()))
            try await body(try #require(source), url)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func sixelFramesAreSentAtThePanesCellWhenDueAndNothingAfterThePaneCloses() async throws {
        try await withAnimation { source, url in
            let pictures = make(SixelPictures(maxColors: 256, maxSize: PixelSize(width: 1000, height: 1000)))
            _ = frame(pictures, [pane(url, frame: 0)])
            await pictures.loadsFinished()
            #expect(frame(pictures, [pane(url, frame: 0)]).sent.contains("\u{1B}[4;2H\u{1B}P"), "the still picture")
            let frames = try #require(pictures.paneAnimationFrames(source, url: url, cells: cells))

            // The first frame is on screen already; the second is encoded ahead and sent when the pane says so.
            let first = try await frames.nextFrame()
            #expect(first.cells.width == 0 && first.displayTime == .milliseconds(100), "no cells: in pixels")
            #expect(frame(pictures, [pane(url, frame: 0)]).sent.isEmpty, "nothing before a frame is due")
            _ = try await frames.nextFrame()
            let second = frame(pictures, [pane(url, frame: 1)])
            #expect(second.lines.isEmpty, "a new frame erases nothing first")
            #expect(second.sent.hasPrefix("\u{1B}7\u{1B}[4;2H\u{1B}P") && second.sent.hasSuffix("\u{1B}8"),
                    "the frame at the pane's cell, the cursor kept")
            #expect(frame(pictures, [pane(url, frame: 1)]).sent.isEmpty, "sent once")
            #expect(frame(pictures, [pane(url, frame: 2)]).sent.isEmpty, "a frame not yet read is not sent")
            _ = try await frames.nextFrame()
            let third = frame(pictures, [pane(url, frame: 2)]).sent
            #expect(!third.isEmpty && third != second.sent, "another frame")

            // Closed: its lines repainted, and a frame read after that is never sent.
            #expect(frame(pictures, []).lines == [3..<5])
            let closed = record.writes.count
            _ = try await frames.nextFrame()
            _ = frame(pictures, [])
            #expect(record.writes.count == closed, "nothing after the pane closed")
        }
    }

    @Test func kittyFramesAreAddedToOneImageAndShownByNumberThenDeletedWhenThePaneCloses() async throws {
        try await withAnimation { source, url in
            let pictures = make(KittyPlacements())
            _ = frame(pictures, [pane(url, frame: 0)])
            await pictures.loadsFinished()
            let still = frame(pictures, [pane(url, frame: 0)]).sent
            let stillID = try #require(still.firstMatch(of: /a=p,i=(\d+),p=65535/)?.1)
            let frames = try #require(pictures.paneAnimationFrames(source, url: url, cells: cells))

            var uploads = record.writes.count
            _ = try await frames.nextFrame()
            let root = written(since: uploads)
            let id = try #require(root.firstMatch(of: /\e_Ga=t,.*i=(\d+),/)?.1, "the first frame uploaded as the image")
            #expect(id != stillID)
            uploads = record.writes.count
            _ = try await frames.nextFrame()
            let added = written(since: uploads)
            #expect(added.hasPrefix("\u{1B}_Ga=f,i=\(id),"), "the second added as a frame, as soon as read")

            let shown = frame(pictures, [pane(url, frame: 1)]).sent
            #expect(shown.contains("a=d,d=i,i=\(stillID),p=65535"), "the still picture's placement goes")
            #expect(shown.contains("a=a,i=\(id),s=1,c=2") && shown.contains("a=p,i=\(id),p=65535"),
                    "the animation's second frame shown at the pane's placement")

            // The second loop sends no pixels: each frame is shown by its number.
            for number in 2...5 {
                uploads = record.writes.count
                _ = try await frames.nextFrame()
                let data = written(since: uploads)
                #expect(data.contains("a=f") == (number < 4), "frame \(number): \(data.prefix(20))")
                let sent = frame(pictures, [pane(url, frame: number)]).sent
                #expect(sent == "\u{1B}_Ga=a,i=\(id),s=1,c=\(number % 4 + 1),q=2\u{1B}\\", "frame \(number)")
            }

            let closed = frame(pictures, []).sent
            #expect(closed.contains("a=d,d=I,i=\(id),"), "the animation's image deleted with the pane")
            let after = record.writes.count
            _ = try await frames.nextFrame()
            #expect(record.writes.count == after, "nothing after the pane closed")
        }
    }

    @Test func aKittyAnimationPlayedAgainGivesTheStillPictureItsPlaceBackUntilItsFirstFrame() async throws {
        try await withAnimation { source, url in
            let pictures = make(KittyPlacements())
            _ = frame(pictures, [pane(url, frame: 0)])
            await pictures.loadsFinished()
            let stillID = try #require(frame(pictures, [pane(url, frame: 0)]).sent.firstMatch(of: /a=p,i=(\d+),/)?.1)
            let frames = try #require(pictures.paneAnimationFrames(source, url: url, cells: cells))
            for _ in 0..<2 { _ = try await frames.nextFrame() }
            #expect(frame(pictures, [pane(url, frame: 1)]).sent.contains("a=d,d=i,i=\(stillID),p=65535"))

            // Played again (Ctrl-Z and fg, a font change): the first animation's image goes, the still comes back.
            let before = record.writes.count
            let again = try #require(pictures.paneAnimationFrames(source, url: url, cells: cells))
            #expect(written(since: before).contains("a=d,d=I,"))
            #expect(frame(pictures, [pane(url, frame: 0)]).sent.contains("a=p,i=\(stillID),p=65535"),
                    "the still picture placed again")
            for _ in 0..<2 { _ = try await again.nextFrame() }
            let shown = frame(pictures, [pane(url, frame: 1)]).sent
            #expect(shown.contains("a=d,d=i,i=\(stillID),p=65535") && shown.contains("s=1,c=2"),
                    "the new animation takes its place")
        }
    }

    @Test func kittyPastItsBudgetWritesEachLaterFrameOverTheLastOneKept() throws {
        #expect(KittyPlacements.heldFrames(width: 2100, height: 2100) == 2, "at least two")
        let picture = Bitmap(width: 320, height: 240, fill: RGBA(r: 9, g: 9, b: 9))
        #expect(KittyPlacements.heldFrames(width: picture.width, height: picture.height) == 109, "32 MB of RGBA")
        let kitty = KittyPlacements()
        let footprint = PictureFootprint(x: 0, y: 0, columns: 32, rows: 12)
        let kept = try #require(kitty.animationFrame(picture, position: 108, footprint: footprint, id: 5))
        #expect(String(decoding: kept.upload.prefix(20), as: UTF8.self).hasPrefix("\u{1B}_Ga=f,i=5,f="))
        #expect(kept.again?.upload.isEmpty == true, "kept: a later loop only shows it")
        let last = try #require(kitty.animationFrame(picture, position: 109, footprint: footprint, id: 5))
        #expect(String(decoding: last.upload.prefix(20), as: UTF8.self).hasPrefix("\u{1B}_Ga=f,i=5,f="), "added")
        let again = try #require(last.again)
        #expect(String(decoding: again.upload.prefix(30), as: UTF8.self).hasPrefix("\u{1B}_Ga=f,i=5,r=110,X=1"))
        let later = try #require(kitty.animationFrame(picture, position: 140, footprint: footprint, id: 5))
        #expect(String(decoding: later.upload.prefix(30), as: UTF8.self).hasPrefix("\u{1B}_Ga=f,i=5,r=110,X=1"),
                "written over the last frame kept")
        #expect(String(decoding: later.show, as: UTF8.self).contains("c=110"))
    }
}
