@testable import App
import Cells
import Codecs
import Foundation
import Graphics
import Pixels
import Table
import Testing

/// The adapter with kitty's Unicode placeholders (`KittyPlaceholderPictures`) for the thumbnails: uploads written
/// before the frame that draws their cells, the cells handed to the frame by owner, one id space and one eviction
/// with the pane's direct placements, deletes at a suspend, at eviction and on a rejection. A recording sender, a
/// fetch that answers at once, the real kitty encoder.
@MainActor
@Suite struct TerminalPicturesPlaceholderTests {
    let record = TerminalPicturesTests.Record()
    let cell = CellPixelSize(width: 10, height: 20)
    let cat = URL(string: "https://example.com/cat.png")!
    let dog = URL(string: "https://example.com/dog.png")!

    func make(form: KittyPlaceholder.ColorForm = .direct, insideTmux: Bool = false,
              pane: (any PictureProtocol)? = nil) -> TerminalPictures {
        let record = self.record
        return TerminalPictures(thumbnails: KittyPlaceholderPictures(form: form, insideTmux: insideTmux, highByte: 7),
                                pane: pane, cellPixels: cell, fetch: { url, box in
            record.fetches.append(url)
            return Bitmap(width: box.width, height: box.height, fill: RGBA(r: 200, g: 0, b: 0))
        }, send: { record.writes.append($0) })
    }

    func picture(_ url: URL, slot: Int, generation: Int = 1, y: Int, whole: Bool = true) -> ScreenPicture {
        ScreenPicture(owner: .slot(id: slot, generation: generation), url: url,
                      footprint: PictureFootprint(x: 2, y: y, columns: 12, rows: 5), isWhole: whole)
    }

    /// Draws a frame; with `awaitingLoad`, waits for the fetches under way and draws the next. Returns the cells the
    /// last frame drew in place of the text art.
    @discardableResult
    func frame(_ pictures: TerminalPictures, _ wanted: [ScreenPicture], flying: Bool = false,
               awaitingLoad: Bool = false) async -> PictureCells {
        let lines = await TerminalPicturesTests.frame(pictures, wanted, flying: flying, awaitingLoad: awaitingLoad)
        #expect(lines.isEmpty, "no line repainted for text cells")
        return pictures.cells
    }

    func placeholders(_ id: UInt32, form: KittyPlaceholder.ColorForm = .direct) -> CellBuffer {
        KittyPlaceholder.cells(imageID: id, columns: 12, rows: 5, form: form)
    }

    @Test func anUploadIsWrittenOnceBeforeTheFrameThatDrawsItsCells() async throws {
        let pictures = make()
        let row = picture(cat, slot: 0, y: 3)
        // The first frame shows the text art and fetches; the next uploads before its text and draws the cells.
        #expect(pictures.frameWill(show: [row], flying: false).isEmpty && pictures.cells.isEmpty)
        pictures.frameDrawn()
        #expect(record.writes.isEmpty)
        await pictures.loadsFinished()
        _ = pictures.frameWill(show: [row], flying: false)
        let id = try #require(record.uploads.first)
        #expect(record.uploads == [id] && id >> 24 == 7 && id & 0xFF_FFFF >= 256, "the run's high byte, 24-bit low")
        #expect(record.all.hasPrefix("\u{1B}_Ga=T,U=1,") && record.all.contains(",i=\(id),c=12,r=5,"))
        #expect(pictures.cells == [row.owner: placeholders(id)], "its cells, before the frame is composed")
        pictures.frameDrawn()
        let sent = record.writes.count
        // Idle, then the row scrolls: its cells go with it, and nothing more is written.
        for y in [3, 3, 9] {
            #expect(await frame(pictures, [picture(cat, slot: 0, y: y)]) == [row.owner: placeholders(id)])
        }
        #expect(record.writes.count == sent && record.fetches == [cat] && pictures.encodings == 1)
    }

    @Test func aLatePictureNeverShowsInAnotherRow() async throws {
        let pictures = make()
        // Slot 0 asks for the cat; before it lands, the slot is bound to the dog's row at the same cells, and the
        // cat's row is shown by slot 1 further down.
        _ = await frame(pictures, [picture(cat, slot: 0, y: 3)])
        let rebound = [picture(dog, slot: 0, generation: 2, y: 3), picture(cat, slot: 1, y: 9)]
        let cells = await frame(pictures, rebound, awaitingLoad: true)
        // Ids are taken as loads start: the cat's first.
        let (catID, dogID) = try (#require(record.uploads.min()), #require(record.uploads.max()))
        #expect(record.uploads.count == 2 && catID != dogID)
        #expect(cells == [.slot(id: 0, generation: 2): placeholders(dogID),
                          .slot(id: 1, generation: 1): placeholders(catID)],
                "the cat only where the frame wants it, for the binding that wants it")
        #expect(cells[.slot(id: 0, generation: 1)] == nil)
        // The dog's slot rebound once more: its cells go at once, before any load.
        #expect(Array(await frame(pictures, [picture(cat, slot: 1, y: 9)]).keys) == [.slot(id: 1, generation: 1)])
    }

    @Test func nothingIsFetchedOrUploadedWhileTheRowsFlyPastAndShownCellsStay() async throws {
        let pictures = make()
        let shown = picture(cat, slot: 0, y: 3)
        await frame(pictures, [shown], awaitingLoad: true)
        let id = try #require(record.uploads.first)
        record.writes.removeAll()
        // Flying: the row that stays keeps its cells; a row bound anew gets none, and nothing is fetched for it.
        let flying = [picture(cat, slot: 0, y: 1), picture(dog, slot: 1, y: 8)]
        #expect(await frame(pictures, flying, flying: true) == [shown.owner: placeholders(id)])
        #expect(record.writes.isEmpty && record.fetches == [cat])
        // A row bound anew to the cat, whose image the terminal holds: text art until the scroll rests.
        #expect(await frame(pictures, [picture(cat, slot: 2, y: 3)], flying: true).isEmpty)
        #expect(await frame(pictures, [picture(cat, slot: 2, y: 3)]) == [.slot(id: 2, generation: 1): placeholders(id)])
        #expect(record.writes.isEmpty, "held by the terminal: nothing sent")
    }

    @Test func aPictureShownInPartIsDrawnAsCellsButNotInPixels() async throws {
        let pictures = make()
        let cut = picture(cat, slot: 0, y: 27, whole: false)
        #expect(await frame(pictures, [cut], awaitingLoad: true).count == 1, "placeholders may be cut by the frame")
        let sixel = TerminalPictures(form: SixelPictures(maxColors: 256, maxSize: PixelSize(width: 1000, height: 1000)),
                                     cellPixels: cell, fetch: { _, _ in nil }, send: { _ in })
        _ = sixel.frameWill(show: [cut], flying: false)
        sixel.frameDrawn()
        await sixel.loadsFinished()
        #expect(sixel.onScreen.isEmpty && sixel.encodings == 0, "a picture in pixels is whole or not shown")
    }

    @Test func leavingTheScreenDeletesEveryImageAndTheNextFrameUploadsThemAgainWithoutFetching() async throws {
        let pictures = make()
        let rows = [picture(cat, slot: 0, y: 3), picture(dog, slot: 1, y: 9)]
        await frame(pictures, rows, awaitingLoad: true)
        let ids = Set(record.uploads)
        pictures.leaveScreen()
        #expect(Set(record.deletes) == ids && ids.count == 2)
        #expect(pictures.cells.isEmpty && pictures.onScreen.isEmpty)
        record.writes.removeAll()
        #expect(await frame(pictures, rows).count == 2)
        #expect(Set(record.uploads) == ids && record.fetches.count == 2 && pictures.encodings == 2,
                "sent again from what was kept")
    }

    @Test func theLeastRecentlyShownImageIsDeletedBeyondTheLimit() async throws {
        let pictures = make(form: .palette256)
        let urls = (0...200).map { URL(string: "https://example.com/\($0).png")! }
        for url in urls { await frame(pictures, [picture(url, slot: 0, y: 3)], awaitingLoad: true) }
        #expect(record.uploads.count == 201)
        #expect(record.deletes == [record.uploads[0]], "200 held in 256 colours: the oldest deleted")
        // 240 ids in 256 colours, each carried by a palette colour past the 16 ANSI ones.
        #expect(record.uploads.allSatisfy { $0 >> 24 == 7 && (16...255).contains($0 & 0xFF_FFFF) })
        #expect(Set(record.uploads).count == 201)
    }

    @Test func aRejectedImageGoesBackToTextArtForGood() async throws {
        let pictures = make()
        let row = [picture(cat, slot: 0, y: 3)]
        await frame(pictures, row, awaitingLoad: true)
        let id = try #require(record.uploads.first)
        pictures.handle(KittyResponse(imageID: id, message: "ENOSPC:no room"))
        #expect(record.deletes == [id])
        #expect(await frame(pictures, row, awaitingLoad: true).isEmpty)
        #expect(record.uploads == [id] && record.fetches == [cat], "not fetched or sent again")
    }

    @Test func insideTmuxEveryCommandIsWrappedForPassthrough() async throws {
        let pictures = make(insideTmux: true)
        await frame(pictures, [picture(cat, slot: 0, y: 3)], awaitingLoad: true)
        pictures.leaveScreen()
        let commands = record.all.components(separatedBy: "\u{1B}Ptmux;").dropFirst()
        #expect(!commands.isEmpty && commands.allSatisfy { $0.hasPrefix("\u{1B}\u{1B}_G") })
        #expect(!record.all.contains("\u{1B}\\\u{1B}_G"), "no command outside the wrapping")
    }

    @Test func thePanesDirectPlacementSharesTheIdSpace() async throws {
        let pictures = make(pane: KittyPlacements())
        let pane = ScreenPicture(owner: .pane, url: cat,
                                 footprint: PictureFootprint(x: 0, y: 2, columns: 40, rows: 20))
        await frame(pictures, [picture(cat, slot: 0, y: 3)], awaitingLoad: true)
        let thumbnail = try #require(record.uploads.first)
        record.writes.removeAll()
        #expect(await frame(pictures, [pane], awaitingLoad: true).isEmpty, "the pane's picture is no text cells")
        let paneID = try #require(record.all.firstMatch(of: /a=t,[^;]*i=([0-9]+)/).flatMap { UInt32($0.1) })
        #expect(paneID != thumbnail && paneID >> 24 == 7)
        #expect(record.all.contains("a=p,i=\(paneID),p=65535,c=40,r=20,C=1"))
        pictures.leaveScreen()
        #expect(Set(record.deletes) == [thumbnail, paneID], "one delete path for both")
    }
}

extension TerminalPicturesTests.Record {
    /// The ids of the uploads (`a=T`) and of the deletes (`a=d,d=I`) written, in order.
    var uploads: [UInt32] { all.matches(of: /a=T,[^;]*i=([0-9]+)/).compactMap { UInt32($0.1) } }
    var deletes: [UInt32] { all.matches(of: /a=d,d=I,i=([0-9]+)/).compactMap { UInt32($0.1) } }
}
