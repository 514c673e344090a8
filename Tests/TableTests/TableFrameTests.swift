import App
import Cells
import Foundation
import Items
import Table
import TestSupport
import Testing

/// The table composed into a cell buffer, with no terminal: header, rows, thumbnails, footer, status.
@MainActor
@Suite struct TableFrameTests {
    func makeTable(count: Int = 50, columns: Int = 80, rows: Int = 24,
                   loader: FakeThumbnailLoader = FakeThumbnailLoader(),
                   source: FakeItemSource? = nil) async -> (TableController, ChangeWaiter) {
        let table = TableController(source: source ?? FakeItemSource(count: count), loader: loader,
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3),
                                                         helpLines: KeyTable.helpLines()))
        let waiter = ChangeWaiter(table)
        table.resize(columns: columns, rows: rows)
        table.start()
        await waiter.until { !table.items.isEmpty }
        return (table, waiter)
    }

    @Test func aFrameHasHeaderRowsFooterAndStatus() async {
        let (table, waiter) = await makeTable()
        table.update()
        await waiter.until { !table.isAnimating }
        let lines = table.nextFrame().lines
        #expect(lines.count == 24)
        #expect(lines[0].contains("Fake source"))
        #expect(lines[0].contains(" 1 / 20"))
        #expect(lines[1].contains("#0"))
        #expect(lines[1].contains("Item 0"))
        #expect(lines[2].contains("subtitle 0"))
        #expect(lines[3].contains("Image from test 0"))
        #expect(lines[22].contains("All images from the test"))
        #expect(lines[23].contains("q quit"))
    }

    @Test func everyVisibleRowShowsItsOwnThumbnail() async {
        let (table, waiter) = await makeTable()
        table.update()
        await waiter.until { !table.isAnimating }
        let frame = table.nextFrame()
        for row in table.visibleRows {
            let y = 1 + table.visibleRows.prefix(while: { $0 < row }).reduce(0) { $0 + table.rowHeight($1) }
            guard y < 1 + table.listHeight else { continue }
            let line = frame.line(y)
            #expect(line.contains("#\(row)."), "row \(row) shows another picture: \(line)")
            #expect(line.contains("Item \(row)"))
        }
    }

    @Test func theSelectedRowIsMarked() async {
        let (table, _) = await makeTable()
        table.move(by: 1)
        let lines = table.nextFrame().lines
        #expect(!lines[1].hasPrefix("▌"))
        #expect(lines[5].hasPrefix("▌"))
        #expect(lines[0].contains(" 2 / 20"))
    }

    @Test func controlCharactersInTitlesAreMadeVisible() async {
        let hostile = "Evil \u{1B}]52;c;aGVsbG8=\u{07} \u{1B}[2J \u{9B}31m\rEnd"
        let source = FakeItemSource(count: 3) { i in
            Item(id: "\(i)", title: hostile, imageURL: nil)
        }
        let (table, _) = await makeTable(source: source)
        let frame = table.nextFrame()
        let text = frame.lines.joined(separator: "\n")
        #expect(text.contains("Evil ^[]52;c;aGVsbG8=^G ^[[2J <U+009B>31m^MEnd"))
        for cell in frame.cells {
            for scalar in cell.glyph.unicodeScalars where scalar.value != 0 {
                #expect(scalar.value >= 0x20 && !(0x7F..<0xA0).contains(scalar.value),
                        "control character U+\(String(scalar.value, radix: 16)) reached the frame")
            }
        }
    }

    @Test func wideCharactersKeepTheirColumns() async {
        let source = FakeItemSource(count: 3) { i in
            Item(id: "\(i)", title: "宇宙飛行士 🚀 ok", subtitle: "after", imageURL: nil)
        }
        let (table, _) = await makeTable(source: source)
        let frame = table.nextFrame()
        let textColumn = table.layout.textColumn
        // 宇宙飛行士 is 10 columns, a space, the rocket 2 columns: "ok" starts 14 columns after the title.
        #expect(frame[textColumn, 1].glyph == "宇")
        #expect(frame[textColumn + 1, 1].isContinuation)
        #expect(frame[textColumn + 11, 1].glyph == "🚀")
        #expect(frame[textColumn + 14, 1].glyph == "o")
        // The subtitle below starts in the same column as the title.
        #expect(frame[textColumn, 2].glyph == "a")
    }

    @Test func longTitlesWrapAndMakeTallerRows() async {
        let source = FakeItemSource(count: 3) { i in
            Item(id: "\(i)", title: i == 1 ? String(repeating: "word ", count: 40) : "short",
                 imageURL: URL(string: "http://x/\(i).png"))
        }
        let (table, _) = await makeTable(source: source)
        #expect(table.rowHeight(0) == 4)  // 3-line thumbnail + separator
        #expect(table.rowHeight(1) == 4)  // 3 title lines, capped, + separator
        let lines = table.nextFrame().lines
        #expect(lines[5].contains("word word"))
        #expect(lines[7].contains("…"))
    }

    @Test func aTinyTerminalStillShowsRows() async {
        let (table, _) = await makeTable(columns: 20, rows: 6)
        let lines = table.nextFrame().lines
        #expect(lines.count == 6)
        #expect(lines.allSatisfy { $0.displayWidth == 20 })
        #expect(lines[1].contains("Item 0"))
        #expect(table.layout.thumbnail == nil)
    }

    @Test func aHugeTerminalIsFilled() async {
        let (table, waiter) = await makeTable(count: 500, columns: 300, rows: 100)
        table.update()
        // Twenty rows do not fill 97 lines: the next page is asked for at once.
        #expect(await waiter.until { table.items.count >= 40 })
        let lines = table.nextFrame().lines
        #expect(lines.count == 100)
        #expect(lines[0].contains(/\ \/ \d+ · 500 in all $/))
        #expect(lines[98].contains("All images from the test"))
        // The rows reach down to the footer: the last list lines hold a row's text or thumbnail.
        #expect(lines[94...96].contains { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
    }

    @Test func resizeKeepsTheSelection() async {
        let (table, _) = await makeTable()
        table.move(by: 7)
        table.resize(columns: 40, rows: 10)
        #expect(table.viewport.selection == 7)
        #expect(table.visibleRows.contains(7))
        table.resize(columns: 120, rows: 50)
        #expect(table.viewport.selection == 7)
        #expect(table.visibleRows.contains(7))
    }

    @Test func filterShowsMatchingTitlesAndEscapeRestoresAll() async {
        let (table, _) = await makeTable()
        table.beginFilter()
        for c in "item 1" { table.editFilter(appending: c) }
        // Item 1, Item 10..19.
        #expect(table.itemCount == 11)
        let lines = table.nextFrame().lines
        #expect(lines[0].contains("/ 11 matching · 20 loaded"))
        #expect(lines[23].contains("/item 1"))
        table.clearFilter()
        #expect(table.itemCount == 20)
    }

    @Test func aFilterThatMatchesNothingSaysSo() async {
        let (table, _) = await makeTable()
        table.beginFilter()
        for c in "zebra" { table.editFilter(appending: c) }
        #expect(table.nextFrame().lines.joined().contains("No match for \"zebra\""))
    }

    @Test func helpListsTheKeys() async {
        let (table, _) = await makeTable()
        table.toggleHelp()
        let text = table.nextFrame().lines.joined(separator: "\n")
        #expect(text.contains("Keys"))
        #expect(text.contains("filter rows by title"))
        table.toggleHelp()
        #expect(!table.nextFrame().lines.joined().contains("filter rows by title"))
    }
}
