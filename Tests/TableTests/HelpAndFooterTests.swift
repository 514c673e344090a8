import App
import Cells
import Foundation
import Items
import Table
import TestSupport
import Testing

/// The help on a small screen (it scrolls and says so) and the footer lines cut with an ellipsis.
@MainActor
@Suite struct HelpAndFooterTests {
    /// FakeItemSource under a long credit line.
    final class LongCreditSource: ItemSource, @unchecked Sendable {
        // @unchecked: the wrapped source is itself safe to share.
        let base = FakeItemSource(count: 20)
        let name = "Long credit"
        let attribution = "All images from a collection whose credit line is much longer than a narrow terminal is wide"
        var firstPage: PageCursor { base.firstPage }
        func page(at cursor: PageCursor) async throws -> ItemPage { try await base.page(at: cursor) }
    }

    func makeTable(_ source: any ItemSource = FakeItemSource(count: 50), columns: Int,
                   rows: Int) async -> TableController {
        let table = TableController(source: source, loader: FakeThumbnailLoader(),
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3),
                                                         helpLines: KeyTable.helpLines()))
        let waiter = ChangeWaiter(table)
        table.resize(columns: columns, rows: rows)
        table.start()
        await waiter.until { !table.items.isEmpty }
        return table
    }

    /// The words in the help box (a 60-column screen's columns 1-58, between the header and the status line),
    /// joined across lines, so that a wrapped action reads as one.
    func shownActions(_ lines: [String]) -> String {
        lines.dropFirst().dropLast().map { String($0.dropFirst().prefix(58)) }
            .joined(separator: " ").split(separator: " ").joined(separator: " ")
    }

    @Test func aHelpTallerThanTheScreenScrollsAndSaysSo() async {
        let table = await makeTable(columns: 60, rows: 15)
        table.toggleHelp()
        var lines = table.nextFrame().lines
        #expect(table.helpScroll.isCut)
        let footer = lines.first { $0.contains("j/k PgDn scroll") }
        #expect(footer?.contains("lines 1-") == true, "the help says it scrolls:\n\(lines.joined(separator: "\n"))")
        #expect(shownActions(lines).contains("move one row"))
        #expect(!shownActions(lines).contains("quit"), "the last line is below the box")

        table.scrollHelp(by: Int(Int32.max))
        lines = table.nextFrame().lines
        #expect(shownActions(lines).contains("quit"), "scrolled to the end:\n\(lines.joined(separator: "\n"))")
        #expect(shownActions(lines).contains("suspend to the shell"))
        #expect(!shownActions(lines).contains("move one row"))
        #expect(table.showingHelp, "scrolling keeps the help open")
        #expect(lines.allSatisfy { $0.displayWidth <= 60 })
    }

    @Test func everyHelpActionIsShownWholeSomewhere() async {
        // Wrapped rather than cut: scrolling through the help at 60x15 shows every word of every action.
        let table = await makeTable(columns: 60, rows: 15)
        table.toggleHelp()
        var seen = shownActions(table.nextFrame().lines)
        for _ in 0..<20 {
            table.scrollHelp(by: table.helpScroll.page)
            seen += " " + shownActions(table.nextFrame().lines)
        }
        for line in KeyTable.helpLines() {
            #expect(seen.contains(line.action), "\"\(line.action)\" is never shown whole")
        }
    }

    @Test func aHelpThatFitsSaysAnyKeyCloses() async {
        let table = await makeTable(columns: 100, rows: 40)
        table.toggleHelp()
        let lines = table.nextFrame().lines
        #expect(!table.helpScroll.isCut)
        #expect(lines.contains { $0.contains("any key closes") })
        #expect(!lines.contains { $0.contains("scroll · other keys close") })
    }

    @Test func theFooterIsCutWithAnEllipsisAndTheHintShortensInstead() async {
        let table = await makeTable(LongCreditSource(), columns: 50, rows: 20)
        let lines = table.nextFrame().lines
        let footer = lines[18].trimmingCharacters(in: .whitespaces)
        #expect(footer.hasPrefix("All images from a collection"))
        #expect(footer.hasSuffix("…"), "footer: \(footer)")
        #expect(lines[18].displayWidth <= 50)
        let status = lines[19].trimmingCharacters(in: .whitespaces)
        // The keys' hint shortens before it is cut: its shorter form fits 50 columns whole.
        #expect(status == "j/k · Enter open · / filter · ? help · q quit", "status: \(status)")
    }
}
