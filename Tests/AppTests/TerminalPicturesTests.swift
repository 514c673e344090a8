@testable import App
import Codecs
import Foundation
import Graphics
import Pixels
import Table
import Testing

/// The adapter's decisions, on a recording sender and a fetch that answers at once: what is sent where and when,
/// what is repainted, what is fetched and encoded. The real sixel, iTerm2 and kitty encoders make the bytes.
@MainActor
@Suite struct TerminalPicturesTests {
    /// What the adapter wrote and fetched.
    final class Record {
        var writes: [[UInt8]] = []
        var fetches: [URL] = []
        var all: String { writes.map { String(decoding: $0, as: UTF8.self) }.joined() }
        /// What was sent after the spaces that erase pictures leaving (`TerminalPictures.blanks`).
        var afterBlanks: String {
            let blanks = writes.first?.starts(with: Array("\u{1B}7\u{1B}[0m".utf8)) == true
            return (blanks ? writes.dropFirst() : writes[...]).map { String(decoding: $0, as: UTF8.self) }.joined()
        }
    }

    let record = Record()
    let cell = CellPixelSize(width: 10, height: 20)
    let cat = URL(string: "https://example.com/cat.png")!
    let dog = URL(string: "https://example.com/dog.png")!

    func make(_ form: any PictureProtocol) -> TerminalPictures {
        let record = self.record
        return TerminalPictures(form: form, cellPixels: cell, fetch: { url, box in
            record.fetches.append(url)
            return Bitmap(width: box.width, height: box.height,
                          fill: url.lastPathComponent.hasPrefix("cat") ? RGBA(r: 200, g: 0, b: 0) : RGBA(r: 0, g: 0, b: 200))
        }, send: { record.writes.append($0) })
    }

    func picture(_ url: URL, slot: Int, generation: Int = 1, x: Int = 2, y: Int) -> ScreenPicture {
        ScreenPicture(owner: .slot(id: slot, generation: generation), url: url,
                      footprint: PictureFootprint(x: x, y: y, columns: 12, rows: 5))
    }

    /// Draws a frame and, when pictures are being fetched, waits for them and draws the next frame.
    @discardableResult
    func frame(_ pictures: TerminalPictures, _ wanted: [ScreenPicture], flying: Bool = false,
               awaitingLoad: Bool = false) async -> [Range<Int>] {
        await Self.frame(pictures, wanted, flying: flying, awaitingLoad: awaitingLoad)
    }

    /// The same, for any suite of the adapter.
    static func frame(_ pictures: TerminalPictures, _ wanted: [ScreenPicture], flying: Bool,
                      awaitingLoad: Bool) async -> [Range<Int>] {
        let lines = pictures.frameWill(show: wanted, flying: flying)
        pictures.frameDrawn()
        #expect(pictures.wrongPictures == 0, "every picture on screen is one the frame wants there")
        if awaitingLoad {
            await pictures.loadsFinished()
            _ = pictures.frameWill(show: wanted, flying: flying)
            pictures.frameDrawn()
            #expect(pictures.wrongPictures == 0, "every picture on screen is one the frame wants there")
        }
        return lines
    }

    func sixelCount(_ text: String) -> Int { text.components(separatedBy: "\u{1B}P").count - 1 }

    @Test func aSixelIsSentAtItsCellOnceReadyAndAnIdleScreenSendsNothing() async throws {
        let pictures = make(SixelPictures(maxColors: 256, maxSize: PixelSize(width: 1000, height: 1000)))
        let shown = [picture(cat, slot: 0, y: 3)]
        #expect(await frame(pictures, shown, awaitingLoad: true).isEmpty)
        #expect(record.all.hasPrefix("\u{1B}7\u{1B}[4;3H\u{1B}P"), "at row 3, column 2, the cursor saved")
        #expect(record.all.hasSuffix("\u{1B}\\\u{1B}8"), "the cursor restored")
        #expect(sixelCount(record.all) == 1)
        let sent = record.writes.count
        for _ in 0..<3 { await frame(pictures, shown) }
        #expect(record.writes.count == sent, "nothing more while the screen stays")
        #expect(pictures.encodings == 1 && record.fetches == [cat])
    }

    @Test func theSixelsHeightIsAMultipleOfSixWithinItsCells() throws {
        let sixel = SixelPictures(maxColors: 256, maxSize: PixelSize(width: 1000, height: 1000))
        let box = try #require(sixel.box(for: PictureFootprint(x: 0, y: 0, columns: 7, rows: 5),
                                         cell: CellPixelSize(width: 6, height: 13)))
        #expect(box == PixelSize(width: 42, height: 60), "65 px of cells: 60, no band under the last row")
        #expect(sixel.box(for: PictureFootprint(x: 0, y: 0, columns: 1, rows: 0), cell: cell) == nil)
    }

    @Test func aPictureThatMovesIsErasedByRepaintingItsLinesAndSentAgainWithoutEncoding() async throws {
        let pictures = make(SixelPictures(maxColors: 256, maxSize: PixelSize(width: 1000, height: 1000)))
        await frame(pictures, [picture(cat, slot: 0, y: 3)], awaitingLoad: true)
        record.writes.removeAll()
        let lines = await frame(pictures, [picture(cat, slot: 0, y: 9)])
        #expect(lines == [3..<8], "the old place's lines are repainted")
        // Its cells are first written over with spaces (curses may erase a run of blanks in ways that leave a
        // picture in xterm), the colours and the cursor kept; then the picture is sent at its new place.
        let blanks = "\u{1B}7\u{1B}[0m" + (4...8).map { "\u{1B}[\($0);3H" + String(repeating: " ", count: 12) }.joined()
            + "\u{1B}8"
        #expect(record.writes.first.map { String(decoding: $0, as: UTF8.self) } == blanks)
        #expect(record.all.hasPrefix(blanks + "\u{1B}7\u{1B}[10;3H") && sixelCount(record.all) == 1)
        #expect(pictures.encodings == 1, "kept, not encoded again")
    }

    @Test func aReboundSlotNeverShowsTheOldPicture() async throws {
        let pictures = make(SixelPictures(maxColors: 256, maxSize: PixelSize(width: 1000, height: 1000)))
        await frame(pictures, [picture(cat, slot: 0, y: 3)], awaitingLoad: true)
        record.writes.removeAll()
        // The slot is bound to another row, whose text art is at the same cells: the cat goes, the dog comes.
        let rebound = [picture(dog, slot: 0, generation: 2, y: 3)]
        #expect(await frame(pictures, rebound, awaitingLoad: true) == [3..<8])
        #expect(pictures.onScreen[.slot(id: 0, generation: 2)]?.url == dog)
        #expect(pictures.onScreen.count == 1)
    }

    @Test func aRepaintedLineSendsAgainTheNeighbourItErased() async throws {
        // Two grid cells side by side: the left one's slot is rebound to a row without a picture yet.
        let pictures = make(SixelPictures(maxColors: 256, maxSize: PixelSize(width: 1000, height: 1000)))
        let left = picture(cat, slot: 0, x: 1, y: 2), right = picture(dog, slot: 1, x: 20, y: 2)
        await frame(pictures, [left, right], awaitingLoad: true)
        #expect(pictures.onScreen.count == 2)
        record.writes.removeAll()
        #expect(Set(await frame(pictures, [right])) == [2..<7])
        #expect(record.afterBlanks.hasPrefix("\u{1B}7\u{1B}[3;21H") && sixelCount(record.all) == 1,
                "the right one, erased with the line, is drawn again")
    }

    @Test func whenAPictureLeavesEveryLineWithPixelsIsRepaintedAndTheOthersSentAgain() async throws {
        // Curses may scroll the text to move rows, and sixel pixels with it: no line with pixels may keep them.
        let pictures = make(SixelPictures(maxColors: 256, maxSize: PixelSize(width: 1000, height: 1000)))
        let rows = [picture(cat, slot: 0, y: 2), picture(dog, slot: 1, y: 8)]
        await frame(pictures, rows, awaitingLoad: true)
        record.writes.removeAll()
        let lines = await frame(pictures, [picture(dog, slot: 1, y: 2)])
        #expect(Set(lines) == [2..<7, 8..<13])
        #expect(record.afterBlanks.hasPrefix("\u{1B}7\u{1B}[3;3H") && sixelCount(record.all) == 1)
        record.writes.removeAll()
        #expect(await frame(pictures, [picture(dog, slot: 1, y: 2)]).isEmpty && record.writes.isEmpty, "then idle")
    }

    @Test func nothingIsFetchedOrSentWhileTheRowsFlyPast() async throws {
        let pictures = make(SixelPictures(maxColors: 256, maxSize: PixelSize(width: 1000, height: 1000)))
        for y in [3, 9, 15] { await frame(pictures, [picture(cat, slot: y, y: y)], flying: true) }
        #expect(record.writes.isEmpty && record.fetches.isEmpty)
        await frame(pictures, [picture(dog, slot: 1, y: 3)], awaitingLoad: true)
        #expect(record.fetches == [dog] && sixelCount(record.all) == 1, "only the screen it stops on")
    }

    @Test func aLatePictureIsNotSentWhereTheFrameNoLongerWantsIt() async throws {
        let pictures = make(ITerm2Pictures())
        _ = pictures.frameWill(show: [picture(cat, slot: 0, y: 3)], flying: false)
        pictures.frameDrawn()
        // The next frame, before the fetch lands, shows the slot bound to another row at the same cells.
        let rebound = [picture(dog, slot: 0, generation: 2, y: 3)]
        _ = pictures.frameWill(show: rebound, flying: false)
        await pictures.loadsFinished()
        pictures.frameDrawn()
        await pictures.loadsFinished()
        _ = pictures.frameWill(show: rebound, flying: false)
        pictures.frameDrawn()
        #expect(pictures.onScreen == [.slot(id: 0, generation: 2): rebound[0]], "only the dog, where it is wanted")
        #expect(record.all.components(separatedBy: "1337;File").count - 1 == 1, "one picture sent in all")
    }

    @Test func theLeastRecentlyShownPictureIsForgottenBeyondTheLimitAndFetchedAgain() async throws {
        let pictures = make(ITerm2Pictures())
        let urls = (0...TerminalPictures.maxPictures).map { URL(string: "https://example.com/\($0).png")! }
        for url in urls { await frame(pictures, [picture(url, slot: 0, y: 3)], awaitingLoad: true) }
        #expect(record.fetches.count == urls.count)
        await frame(pictures, [picture(urls[1], slot: 0, y: 3)], awaitingLoad: true)
        #expect(record.fetches.count == urls.count, "a recent one is kept")
        await frame(pictures, [picture(urls[0], slot: 0, y: 3)], awaitingLoad: true)
        #expect(record.fetches.count == urls.count + 1 && record.fetches.last == urls[0], "the oldest was forgotten")
    }

    @Test func anITerm2PictureIsAnInlineJPEGOfItsFootprint() async throws {
        let pictures = make(ITerm2Pictures())
        await frame(pictures, [picture(cat, slot: 0, y: 3)], awaitingLoad: true)
        #expect(record.all.hasPrefix("\u{1B}7\u{1B}[4;3H\u{1B}]1337;File=inline=1;"))
        #expect(record.all.contains(";width=12;height=5;"))
    }

    @Test func kittyUploadsOncePlacesByIdMovesAndDeletesThePlacement() async throws {
        let pictures = make(KittyPlacements())
        await frame(pictures, [picture(cat, slot: 4, y: 3)], awaitingLoad: true)
        let first = record.all
        #expect(first.contains("\u{1B}_Ga=t,"), "uploaded without being shown")
        let id = try #require(first.firstMatch(of: /a=t,[^;]*i=([0-9]+)/).map { String($0.1) })
        #expect(first.hasSuffix("\u{1B}7\u{1B}[4;3H\u{1B}_Ga=p,i=\(id),p=5,c=12,r=5,C=1,q=1\u{1B}\\\u{1B}8"))
        record.writes.removeAll()
        // The row scrolls: the same ids again move the placement; nothing to repaint, nothing uploaded.
        #expect(await frame(pictures, [picture(cat, slot: 4, y: 10)]).isEmpty)
        #expect(record.all == "\u{1B}7\u{1B}[11;3H\u{1B}_Ga=p,i=\(id),p=5,c=12,r=5,C=1,q=1\u{1B}\\\u{1B}8")
        record.writes.removeAll()
        await frame(pictures, [])
        #expect(record.all == "\u{1B}_Ga=d,d=i,i=\(id),p=5,q=2\u{1B}\\", "its placement deleted by id")
        record.writes.removeAll()
        pictures.leaveScreen()
        #expect(record.all == "\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\", "the image freed when the screen is left")
    }

    @Test func aPictureTheTerminalRejectsStaysTextArt() async throws {
        let pictures = make(KittyPlacements())
        let wanted = [picture(cat, slot: 0, y: 3)]
        await frame(pictures, wanted, awaitingLoad: true)
        let id = try #require(record.all.firstMatch(of: /a=t,[^;]*i=([0-9]+)/).flatMap { UInt32($0.1) })
        pictures.handle(KittyResponse(imageID: id, message: "EINVAL:no"))
        #expect(pictures.onScreen.isEmpty)
        record.writes.removeAll()
        await frame(pictures, wanted)
        #expect(record.writes.isEmpty && record.fetches == [cat], "not fetched or sent again")
    }
}
