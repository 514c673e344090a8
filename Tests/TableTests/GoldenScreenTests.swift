import App
import Cells
import Foundation
import Items
import Table
import TestSupport
import Testing

/// Whole screens compared with recorded ones: every cell's text and style, for each state the table can show.
/// `THUMBTABLE_RECORD_GOLDEN=1` re-records the files in the source tree, and fails, so a recording run never passes.
@MainActor
@Suite struct GoldenScreenTests {
    static let recording = ProcessInfo.processInfo.environment["THUMBTABLE_RECORD_GOLDEN"] == "1"

    /// The source folder, for recording (the bundle holds a copy made at build time).
    static let sourceFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden")

    func makeTable(_ source: any ItemSource = FakeItemSource(count: 50), loader: FakeThumbnailLoader = .init(),
                   columns: Int = 80, rows: Int = 24) async -> (TableController, ChangeWaiter) {
        await ChangeWaiter.startedTable(source, loader: loader, columns: columns, rows: rows,
                                        helpLines: KeyTable.helpLines())
    }

    /// A table whose first page (5 rows) loaded and whose second failed, with the last row selected.
    func tableWithAFailedPage() async -> (TableController, ChangeWaiter) {
        let (table, waiter) = await makeTable(FakeItemSource(count: 50, pageSize: 5, failingPages: [2],
                                                             failForever: true))
        table.goEnd()
        table.update()
        #expect(await waiter.until { if case .failed = table.listStatus { true } else { false } })
        return (table, waiter)
    }

    /// Binds the rows on screen and waits until their thumbnails (and any page) have settled.
    func settle(_ table: TableController, _ waiter: ChangeWaiter) async {
        table.update()
        #expect(await waiter.until { !table.isAnimating }, "the screen kept loading")
    }

    /// Like `settle`, with a gated loader whose loads are let finish one by one in the order of the slots, each
    /// painted before the next: the reuse overlay's log then lists them in one order on every run.
    func settleInOrder(_ table: TableController, _ waiter: ChangeWaiter, _ loader: FakeThumbnailLoader) async {
        table.update()
        while let slot = table.pool.slots.first(where: \.thumbnail.isLoading), let url = slot.imageURL {
            #expect(await waiter.until { loader.pending.contains(url) })
            loader.release(url)
            #expect(await waiter.until { !slot.thumbnail.isLoading })
        }
        #expect(await waiter.until { !table.isAnimating }, "the screen kept loading")
    }

    // MARK: The list

    @Test func listWithLoadedThumbnails() async throws {
        let (table, waiter) = await makeTable()
        await settle(table, waiter)
        table.move(by: 1)
        try expectGolden("list-loaded", table.nextFrame())
    }

    @Test func rowsLoading() async throws {
        let (table, _) = await makeTable(loader: FakeThumbnailLoader(gated: true))
        for _ in 0..<3 { table.advanceSpinner() }
        try expectGolden("rows-loading", table.nextFrame())
    }

    @Test func aFailedThumbnail() async throws {
        let (table, waiter) = await makeTable(loader: FakeThumbnailLoader(failing: ["1.png"]))
        await settle(table, waiter)
        try expectGolden("thumbnail-failed", table.nextFrame())
    }

    @Test func theFirstPageLoading() async throws {
        let table = TableController(source: FakeItemSource(count: 50), loader: FakeThumbnailLoader(),
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3),
                                                         helpLines: KeyTable.helpLines()))
        table.resize(columns: 80, rows: 24)
        table.start()
        // The page's task has not run yet: the list is empty and loading.
        try expectGolden("status-first-page-loading", table.frame())
    }

    /// A source whose first page has `count` rows and whose next page never answers (until cancelled).
    final class StalledSource: ItemSource, Sendable {
        let name = "Stalled source"
        let attribution = "All images from the test"
        let firstPage = PageCursor.number(1)
        let count: Int
        init(count: Int) { self.count = count }

        func page(at cursor: PageCursor) async throws -> ItemPage {
            guard cursor == firstPage else {
                try await Task.sleep(for: .seconds(3600))
                throw CancellationError()
            }
            return ItemPage(items: (0..<count).map(FakeItemSource.numberedItem), next: .number(2))
        }
    }

    @Test func theStatusRowLoadingMore() async throws {
        let (table, waiter) = await makeTable(StalledSource(count: 3))
        table.update()
        #expect(table.listStatus == .loading)
        #expect(await waiter.until { !table.pool.isLoading(anyOf: 0..<3) })
        try expectGolden("status-loading-more", table.nextFrame())
    }

    @Test func theStatusRowOfAFailedPage() async throws {
        let (table, waiter) = await tableWithAFailedPage()
        await settle(table, waiter)
        try expectGolden("status-failed-page", table.nextFrame())
    }

    @Test func theStatusRowAtTheEnd() async throws {
        let (table, waiter) = await makeTable(FakeItemSource(count: 4))
        await settle(table, waiter)
        table.goEnd()
        try expectGolden("status-end", table.nextFrame())
    }

    // MARK: The grid

    @Test func theGridWithLoadedPicturesAndTheSecondSelected() async throws {
        let (table, waiter) = await makeTable(FakeItemSource(count: 7))
        table.toggleLayout()
        await settle(table, waiter)
        table.moveAcross(by: 1)
        try expectGolden("grid-loaded", table.nextFrame())
    }

    @Test func theGridAtTheEndWithAFailedPictureAndTheOverlay() async throws {
        let loader = FakeThumbnailLoader(gated: true, failing: ["3.png"])
        let (table, waiter) = await makeTable(FakeItemSource(count: 5), loader: loader)
        table.toggleLayout()
        await settleInOrder(table, waiter, loader)
        table.goEnd()
        table.showCounters { [("requests_started", 5)] }
        table.toggleReuseOverlay()
        try expectGolden("grid-end-failed-overlay", table.nextFrame())
    }

    // MARK: The compact list

    @Test func theCompactListWithLoadedThumbnailsAndTheFourthSelected() async throws {
        let (table, waiter) = await makeTable(columns: 80, rows: 24)
        table.toggleCompact()
        await settle(table, waiter)
        table.move(by: 3)
        try expectGolden("compact-loaded", table.nextFrame())
    }

    @Test func theCompactListOfOneLineRowsOnANarrowScreen() async throws {
        let (table, waiter) = await makeTable(FakeItemSource(count: 12), columns: 40, rows: 12)
        table.toggleCompact()
        table.zoom(by: -1)
        table.goEnd()
        await settle(table, waiter)
        try expectGolden("compact-one-line-narrow", table.nextFrame())
    }

    // MARK: Panes and overlays

    @Test func theDetailPane() async throws {
        let (table, waiter) = await makeTable()
        await settle(table, waiter)
        table.move(by: 2)
        table.openSelected()
        #expect(await waiter.until { if case .loaded = table.detail?.image { true } else { false } })
        try expectGolden("detail-pane", table.nextFrame())
    }

    @Test func theFailedPagePane() async throws {
        let (table, _) = await tableWithAFailedPage()
        table.goEnd()
        table.openSelected()
        #expect(table.pageFailure != nil)
        try expectGolden("failed-page-pane", table.frame())
    }

    @Test func help() async throws {
        let (table, waiter) = await makeTable(columns: 100, rows: 40)
        await settle(table, waiter)
        table.toggleHelp()
        try expectGolden("help", table.nextFrame())
    }

    @Test func scrolledHelp() async throws {
        let (table, waiter) = await makeTable(columns: 60, rows: 15)
        await settle(table, waiter)
        table.toggleHelp()
        _ = table.nextFrame()
        table.scrollHelp(by: 4)
        try expectGolden("help-scrolled", table.nextFrame())
    }

    @Test func theReuseOverlay() async throws {
        let loader = FakeThumbnailLoader(gated: true)
        let (table, waiter) = await makeTable(loader: loader)
        await settleInOrder(table, waiter, loader)
        table.page(by: 1)
        await settleInOrder(table, waiter, loader)
        table.showCounters { [("requests_started", 7), ("bytes_discarded", 42)] }
        table.toggleReuseOverlay()
        try expectGolden("reuse-overlay", table.nextFrame())
    }

    @Test func theFilterLine() async throws {
        let (table, waiter) = await makeTable()
        table.beginFilter()
        for c in "item 1" { table.editFilter(appending: c) }
        await settle(table, waiter)
        try expectGolden("filter-editing", table.nextFrame())
        table.endFilterEditing()
        try expectGolden("filter-kept", table.nextFrame())
    }

    @Test func aNarrowShortScreen() async throws {
        let (table, waiter) = await makeTable(columns: 26, rows: 8)
        await settle(table, waiter)
        table.move(by: 1)
        try expectGolden("narrow-short", table.nextFrame())
    }

    @Test func theBatchProgressBar() async throws {
        let (table, waiter) = await makeTable(FakeItemSource(count: 20), loader: FakeThumbnailLoader(failing: ["3.png"]))
        await settle(table, waiter)
        table.startBatchPrefetch()
        try expectGolden("batch-under-way", table.frame())
        #expect(await waiter.until { table.batchProgress?.finished == true })
        try expectGolden("batch-finished", table.frame())
    }

    // MARK: Recording and comparing

    /// Compares a frame with its golden file, or records it when `THUMBTABLE_RECORD_GOLDEN=1` (and fails).
    func expectGolden(_ name: String, _ frame: CellBuffer, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = name + ".txt"
        let actual = Self.encode(frame)
        if Self.recording {
            try actual.write(to: Self.sourceFolder.appendingPathComponent(file), atomically: true, encoding: .utf8)
            Issue.record("recorded \(file); run again without THUMBTABLE_RECORD_GOLDEN=1 to compare",
                         sourceLocation: sourceLocation)
            return
        }
        let url = Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: "Golden")
            ?? Self.sourceFolder.appendingPathComponent(file)
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("no golden file \(file); THUMBTABLE_RECORD_GOLDEN=1 records it", sourceLocation: sourceLocation)
            return
        }
        if actual != expected {
            let diff = Self.differingLines(expected: expected, actual: actual)
            Issue.record("\(file) differs (- golden, + now); THUMBTABLE_RECORD_GOLDEN=1 re-records it:\n\(diff)",
                         sourceLocation: sourceLocation)
        }
    }

    /// The lines that differ, numbered, the golden one above the new one.
    static func differingLines(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        for i in 0..<max(old.count, new.count) {
            let a = i < old.count ? String(old[i]) : "(none)", b = i < new.count ? String(new[i]) : "(none)"
            if a != b { out += ["line \(i + 1):", "- " + a, "+ " + b] }
        }
        return out.joined(separator: "\n")
    }

    /// A screen as text: each line of glyphs between bars, then the same lines with one letter per cell naming its
    /// style ("." is the plain style), then what each letter means.
    static func encode(_ frame: CellBuffer) -> String {
        var letters: [CellStyle: Character] = [.plain: "."]
        var order: [CellStyle] = []
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var styleLines: [String] = []
        for y in 0..<frame.height {
            var line = ""
            for x in 0..<frame.width {
                let style = frame[x, y].style
                if letters[style] == nil {
                    letters[style] = order.count < alphabet.count ? alphabet[order.count] : "?"
                    order.append(style)
                }
                line.append(letters[style]!)
            }
            styleLines.append(line)
        }
        var out = ["screen \(frame.width)x\(frame.height)"]
        out += frame.lines.map { "|" + $0 + "|" }
        out.append("styles")
        out += styleLines.map { "|" + $0 + "|" }
        out += order.map { "\(letters[$0]!) = \(describe($0))" }
        return out.joined(separator: "\n") + "\n"
    }

    static func describe(_ style: CellStyle) -> String {
        func color(_ c: CellColor) -> String {
            switch c {
            case .default: "default"
            case .palette(let n): "\(n)"
            case .rgb(let r, let g, let b): "#" + [r, g, b].map { String(format: "%02x", $0) }.joined()
            }
        }
        let names: [(CellAttributes, String)] = [(.bold, "bold"), (.dim, "dim"), (.reverse, "reverse"),
                                                  (.underline, "underline"), (.italic, "italic")]
        let attributes = names.filter { style.attributes.contains($0.0) }.map(\.1)
        return (["fg \(color(style.foreground))", "bg \(color(style.background))"] + attributes)
            .joined(separator: " ")
    }
}
