import App
import Cells
import Foundation
import Items
import Table
import TestSupport
import Testing

/// The headless printer: it waits on the table's change signal until the screen settles, or until its deadline,
/// and hands back the table's frame at the size asked for, without the status line.
@MainActor
@Suite struct PrinterTests {
    func makePrinter(loader: FakeThumbnailLoader) -> Printer {
        Printer(source: FakeItemSource(count: 50), configuration: .init(thumbnail: CellSize(columns: 8, rows: 3)),
                size: CellSize(columns: 60, rows: 20), loader: loader)
    }

    func lines(_ screen: CellBuffer) -> [String] {
        screen.plainText.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test func itPrintsOnceEveryThumbnailOnScreenHasArrived() async {
        // Each load waits until it is released, and is released as soon as it waits: it arrives a hop later, after
        // the printer has composed the frame it would print if it did not wait.
        let loader = FakeThumbnailLoader(gated: true)
        loader.onEvent = { loader.releaseAll() }
        let printer = makePrinter(loader: loader)
        let result = await printer.run(timeout: .seconds(30))
        #expect(result.settled)
        #expect(result.screen.width == 60 && result.screen.height == 20)
        let text = lines(result.screen)
        #expect(text[0].contains("ThumbTable · Fake source"))
        // Every row on screen shows its own picture (the fake's `#N`), none a spinner.
        let onScreen = printer.table.visibleRows
        #expect(onScreen.count > 2)
        for row in onScreen where row < printer.table.itemCount {
            #expect(text.contains { $0.contains("#\(row)") && $0.contains("Item \(row)") }, "\(text)")
        }
        #expect(printer.table.waitingThumbnails == 0)
        // The footer is the last line printed; the status line with its key hints is left out.
        #expect(text[19].contains("All images from the test"), "\(text)")
        #expect(!text.joined().contains("q quit"))
        printer.table.cancelAll()
    }

    @Test func theDeadlinePrintsWhatThereIs() async {
        let loader = FakeThumbnailLoader(gated: true)
        let printer = makePrinter(loader: loader)
        let result = await printer.run(timeout: .milliseconds(100))
        #expect(!result.settled)
        #expect(printer.table.waitingThumbnails == printer.table.visibleRows.count)
        #expect(lines(result.screen).joined().contains("⠋"), "the spinner shows where a thumbnail still loads")
        printer.table.cancelAll()
    }
}
