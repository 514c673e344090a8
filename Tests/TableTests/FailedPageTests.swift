import Cells
import Foundation
import Items
import Table
import TestSupport
import Testing

/// A failed page as the user sees it: one line of the reason on its row, the whole reason in the pane Enter opens,
/// the retry hint once.
@MainActor
@Suite struct FailedPageTests {
    /// A source whose first page has rows and whose next pages fail with `message` until `heal()` is called.
    final class BrokenSource: ItemSource, @unchecked Sendable {
        // @unchecked: `healed` is only touched under `lock`.
        let name = "Broken source"
        let attribution = "All images from the test"
        let firstPage = PageCursor.number(1)
        let message: String
        let failFirstPage: Bool
        private let lock = NSLock()
        private var healed = false

        init(message: String, failFirstPage: Bool = false) {
            self.message = message
            self.failFirstPage = failFirstPage
        }

        func heal() { lock.withLock { healed = true } }

        func page(at cursor: PageCursor) async throws -> ItemPage {
            guard case .number(let n) = cursor else { throw ItemSourceError("bad cursor") }
            let fails = lock.withLock { !healed } && (n > 1 || failFirstPage)
            if fails { throw ItemSourceError(message) }
            let items = (0..<5).map { FakeItemSource.numberedItem((n - 1) * 5 + $0) }
            return ItemPage(items: items, next: n < 3 ? .number(n + 1) : nil)
        }
    }

    static let longReason = "cannot load http://127.0.0.1:8080/api/species/?page=2&format=json&fields=name,"
        + "classification,designation,average_height,skin_colors,hair_colors,eye_colors,average_lifespan: the "
        + "server closed the connection before it answered (after 3 attempts)."
    /// What the sources say: the reason alone (the table adds how to retry).
    static let sourceMessage = longReason

    func makeTable(_ source: BrokenSource, columns: Int = 80, rows: Int = 24) -> (TableController, ChangeWaiter) {
        let table = TableController(source: source, loader: FakeThumbnailLoader(),
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3)))
        let waiter = ChangeWaiter(table)
        table.resize(columns: columns, rows: rows)
        return (table, waiter)
    }

    /// A table whose first page loaded (5 rows) and whose second failed with `sourceMessage`.
    func tableWithAFailedPage(columns: Int = 80, rows: Int = 24) async -> (TableController, ChangeWaiter, BrokenSource) {
        let source = BrokenSource(message: Self.sourceMessage)
        let (table, waiter) = makeTable(source, columns: columns, rows: rows)
        table.start()
        await waiter.until { table.items.count == 5 }
        table.update()
        #expect(await waiter.until { failed(table) })
        return (table, waiter, source)
    }

    func failed(_ table: TableController) -> Bool {
        if case .failed = table.listStatus { true } else { false }
    }

    /// How many times the screen says how to retry.
    func retryHints(_ lines: [String]) -> Int {
        lines.joined(separator: "\n").components(separatedBy: "retr").count - 1
    }

    @Test func theRowShowsOneLineOfTheReasonAndTheHintOnce() async throws {
        let (table, _, _) = await tableWithAFailedPage()
        table.goEnd()
        let lines = table.nextFrame().lines
        let row = try #require(lines.first { $0.contains("Could not load more rows") })
        #expect(row.contains("cannot load http://127.0.0.1:8080/api/species/"))
        #expect(row.trimmingCharacters(in: .whitespaces).hasSuffix("…"), "cut with an ellipsis: \(row)")
        #expect(!lines.joined().contains("Press r"), "the source's own hint is not repeated")
        #expect(lines[23].contains("Enter shows why the page failed · r retries"))
        #expect(retryHints(lines) == 1, "the retry hint appears once:\n\(lines.joined(separator: "\n"))")
    }

    @Test func awayFromTheErrorRowTheStatusLineSaysWhereItIs() async {
        let (table, _, _) = await tableWithAFailedPage()
        let lines = table.nextFrame().lines
        #expect(lines[23].contains("A page failed to load: G goes to its row"))
        #expect(retryHints(lines) == 0)
    }

    @Test func enterOnTheErrorRowShowsTheWholeReasonWrappedAndRRetries() async {
        let (table, waiter, source) = await tableWithAFailedPage(columns: 60, rows: 20)
        table.goEnd()
        table.openSelected()
        let lines = table.nextFrame().lines
        #expect(lines[0].contains("page failed"))
        #expect(lines.contains { $0.contains("⚠ Could not load more rows") })
        // Every word of the reason is on screen, over several lines, none of them wider than the screen.
        let body = lines[1..<18].map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        let reason = String(Self.longReason.dropLast())
        #expect(body.replacingOccurrences(of: " ", with: "").contains(reason.replacingOccurrences(of: " ", with: "")),
                "the whole reason:\n\(lines.joined(separator: "\n"))")
        #expect(lines.allSatisfy { $0.displayWidth <= 60 })
        #expect(body.contains("5 rows loaded before it stay in the list"))
        #expect(lines[19].contains("r or Enter retries · Esc back"))
        #expect(retryHints(lines) == 1)

        source.heal()
        table.retryPage()
        #expect(table.pageFailure == nil, "retrying goes back to the list")
        #expect(await waiter.until { table.items.count == 10 })
    }

    @Test func aFirstPageThatFailsSaysTheListCouldNotLoad() async {
        let source = BrokenSource(message: "cannot connect to 127.0.0.1:9: connection refused.", failFirstPage: true)
        let (table, waiter) = makeTable(source)
        table.start()
        #expect(await waiter.until { failed(table) })
        let lines = table.nextFrame().lines
        #expect(lines[1].contains("⚠ Could not load the list: cannot connect to 127.0.0.1:9: connection refused"))
        #expect(!lines[1].contains("refused."), "no full stop before the hint")
        #expect(lines[23].contains("Enter shows why the page failed · r retries"))
    }

    @Test func beforeAnyRowTheStatusRowSaysLoadingThenLoadingMore() async {
        let source = BrokenSource(message: "unused")
        source.heal()
        let (table, waiter) = makeTable(source)
        table.start()
        // The first page is on its way (its task has not run yet): nothing to load more of.
        var lines = table.nextFrame().lines
        #expect(lines[1].contains("loading…"))
        #expect(!lines.joined().contains("loading more"))
        await waiter.until { table.items.count == 5 }
        table.goEnd()
        table.update()
        #expect(table.listStatus == .loading)
        table.goEnd()
        lines = table.nextFrame().lines
        #expect(lines.contains { $0.contains("loading more…") })
    }
}
