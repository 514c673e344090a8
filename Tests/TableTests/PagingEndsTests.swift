import Cells
import Foundation
import Items
import Synchronization
import Table
import TestSupport
import Testing

/// Paging ends whatever a source does: a `next` link back to a page already loaded (in any spelling) or a page of
/// rows already loaded ends the list with a note; a run of empty pages stops paging with a note, and `r` asks
/// again; the table asks for pages at a pace; a list has a ceiling of rows and of text.
@MainActor
@Suite struct PagingEndsTests {
    /// A source whose pages a test writes as a function of the cursor, recording each request.
    final class ScriptedSource: ItemSource, Sendable {
        let name = "Scripted source"
        let attribution = "All images from the test"
        let firstPage: PageCursor
        private let answer: @Sendable (PageCursor) -> ItemPage
        private let asked = Mutex<[PageCursor]>([])

        init(firstPage: PageCursor, answer: @escaping @Sendable (PageCursor) -> ItemPage) {
            self.firstPage = firstPage
            self.answer = answer
        }

        /// The cursors asked for, in order.
        var requests: [PageCursor] { asked.withLock { $0 } }

        func page(at cursor: PageCursor) async throws -> ItemPage {
            asked.withLock { $0.append(cursor) }
            return answer(cursor)
        }
    }

    nonisolated static let first = URL(string: "http://example.test/api/items?page=1")!

    /// Rows `start..<start + count`, as a page of the list would have them.
    nonisolated static func rows(_ start: Int, _ count: Int, title: (Int) -> String = { "Row \($0)" }) -> [Item] {
        (start..<start + count).map { Item(id: "\($0)", title: title($0), subtitle: "subtitle \($0)") }
    }

    func makeTable(_ source: ScriptedSource, pagingClock: ManualClock = ManualClock(step: .seconds(1)),
                   ceilings: (rows: Int, textBytes: Int) = (ListState.rowCeiling, ListState.textCeiling))
        -> (TableController, ChangeWaiter) {
        let table = TableController(source: source, loader: FakeThumbnailLoader(),
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3),
                                                         pagingClock: pagingClock.read, listCeilings: ceilings))
        let waiter = ChangeWaiter(table)
        table.resize(columns: 100, rows: 24)
        return (table, waiter)
    }

    /// Runs `update()` after each change, as the app's loop does before each frame, until paging has stopped or ended
    /// (or failed), or `rounds` pages have come. Returns the list's status then.
    @discardableResult
    func runUntilPagingRests(_ table: TableController, _ waiter: ChangeWaiter, rounds: Int = 200) async
        -> TableController.ListStatus {
        for _ in 0..<rounds {
            table.update()
            guard case .loading = table.listStatus else { break }
            let pages = table.pagesLoaded
            guard await waiter.until({ table.pagesLoaded != pages || table.listStatus != .loading }) else { break }
        }
        return table.listStatus
    }

    func screen(_ table: TableController) -> String {
        table.nextFrame().lines.joined(separator: "\n")
    }

    // MARK: A next link already seen

    /// Spellings of the first page's own URL: the same page, whatever the server writes.
    nonisolated static let spellingsOfTheFirstPage = [
        "http://example.test/api/items?page=1",
        "HTTP://EXAMPLE.test/api/items?page=1",
        "http://example.test:80/api/items?page=1",
        "http://example.test/api/items?page=1#again",
        "http://example.test/api/./items?page=1",
        "http://example.test/api/x/../items?page=1",
        "http://example.test/%61pi/items?page=%31",
        "http://example.test/api/items?page=1#",
    ]

    @Test(arguments: spellingsOfTheFirstPage)
    func aPageWhoseNextIsItselfEndsTheListWithANote(_ spelling: String) async {
        let source = ScriptedSource(firstPage: .url(Self.first)) { _ in
            ItemPage(items: Self.rows(0, 20), next: .url(URL(string: spelling)!))
        }
        let (table, waiter) = makeTable(source)
        table.start()
        await waiter.until { table.pagesLoaded == 1 }
        table.goEnd()

        let status = await runUntilPagingRests(table, waiter)

        #expect(status == .stopped(.nextAlreadyLoaded(URL(string: spelling)!.absoluteString)))
        #expect(source.requests.count == 1)
        #expect(table.items.count == 20)
        #expect(!table.isFollowingEnd)
        #expect(screen(table).contains("20 items: the list stops here: its next page"), "\(screen(table))")
        #expect(table.pageNotes.last?.hasSuffix("was loaded already") == true)
    }

    @Test func twoPagesPointingAtEachOtherEndTheList() async {
        let second = URL(string: "http://example.test/api/items?page=2")!
        let source = ScriptedSource(firstPage: .url(Self.first)) { cursor in
            cursor == .url(Self.first) ? ItemPage(items: Self.rows(0, 20), next: .url(second))
                : ItemPage(items: Self.rows(20, 20), next: .url(URL(string: "http://example.test/api/items?page=1#x")!))
        }
        let (table, waiter) = makeTable(source)
        table.start()
        await waiter.until { table.pagesLoaded == 1 }
        table.goEnd()

        let status = await runUntilPagingRests(table, waiter)

        #expect(status == .stopped(.nextAlreadyLoaded("http://example.test/api/items?page=1#x")))
        #expect(source.requests == [.url(Self.first), .url(second)])
        #expect(table.items.count == 40)
    }

    @Test func aServerThatIgnoresThePageNumberEndsTheListAfterOnePage() async {
        let source = ScriptedSource(firstPage: .number(1)) { cursor in
            guard case .number(let n) = cursor else { return ItemPage(items: [], next: nil) }
            return ItemPage(items: Self.rows(0, 20), next: .number(n + 1))
        }
        let (table, waiter) = makeTable(source)
        table.start()
        await waiter.until { table.pagesLoaded == 1 }
        table.goEnd()

        let status = await runUntilPagingRests(table, waiter)

        #expect(status == .stopped(.repeatedRows(page: 2, sameAs: 1)))
        #expect(source.requests == [.number(1), .number(2)])
        #expect(table.items.count == 20, "the repeated rows are not added")
        #expect(screen(table).contains("page 2 has the same rows as page 1"), "\(screen(table))")
    }

    @Test func aNewJunkParameterOnEveryPageOfTheSameRowsEndsTheList() async {
        let source = ScriptedSource(firstPage: .url(Self.first)) { cursor in
            guard case .url(let url) = cursor else { return ItemPage(items: [], next: nil) }
            return ItemPage(items: Self.rows(0, 20), next: .url(URL(string: url.absoluteString + "&junk=1")!))
        }
        let (table, waiter) = makeTable(source)
        table.start()
        await waiter.until { table.pagesLoaded == 1 }
        table.goEnd()

        #expect(await runUntilPagingRests(table, waiter) == .stopped(.repeatedRows(page: 2, sameAs: 1)))
        #expect(source.requests.count == 2)
    }

    // MARK: Empty pages

    /// Pages of no rows, each with a next link to another.
    nonisolated static func emptyPages() -> ScriptedSource {
        ScriptedSource(firstPage: .number(1)) { cursor in
            guard case .number(let n) = cursor else { return ItemPage(items: [], next: nil) }
            return ItemPage(items: [], next: .number(n + 1))
        }
    }

    @Test func aRunOfEmptyPagesStopsPagingWithANoteWithoutAKey() async {
        let source = Self.emptyPages()
        let (table, waiter) = makeTable(source)
        table.start()

        let status = await runUntilPagingRests(table, waiter)

        #expect(status == .stopped(.emptyPages(count: 5, next: .number(6))))
        #expect(source.requests.count == 5)
        #expect(table.isSettled, "nothing more is coming: the print mode prints at once")
        #expect(screen(table).contains("0 items: paging stopped: 5 empty pages in a row · r asks again"),
                "\(screen(table))")
        #expect(!screen(table).contains("loading"))
    }

    @Test func rAsksAgainAfterARunOfEmptyPages() async {
        let source = Self.emptyPages()
        let (table, waiter) = makeTable(source)
        table.start()
        await runUntilPagingRests(table, waiter)
        #expect(source.requests.count == 5)

        table.retrySelected()
        let status = await runUntilPagingRests(table, waiter)

        #expect(source.requests.count == 10)
        #expect(status == .stopped(.emptyPages(count: 5, next: .number(11))))
    }

    @Test func emptyPagesAfterRowsStopFollowingTheEndOnTheLastRow() async {
        let source = ScriptedSource(firstPage: .number(1)) { cursor in
            guard case .number(let n) = cursor else { return ItemPage(items: [], next: nil) }
            return ItemPage(items: n == 1 ? Self.rows(0, 20) : [], next: .number(n + 1))
        }
        let (table, waiter) = makeTable(source)
        table.start()
        await waiter.until { table.pagesLoaded == 1 }
        table.goEnd()

        #expect(await runUntilPagingRests(table, waiter) == .stopped(.emptyPages(count: 5, next: .number(7))))
        #expect(source.requests.count == 6)
        #expect(table.viewport.selection == 20, "the stop's row, below the 20 rows")
        #expect(!table.isFollowingEnd)
    }

    // MARK: Ceilings

    /// An endless list of distinct rows, `size` a page.
    nonisolated static func endless(size: Int, title: @escaping @Sendable (Int) -> String = { "Row \($0)" }) -> ScriptedSource {
        ScriptedSource(firstPage: .number(1)) { cursor in
            guard case .number(let n) = cursor else { return ItemPage(items: [], next: nil) }
            return ItemPage(items: Self.rows((n - 1) * size, size, title: title), next: .number(n + 1))
        }
    }

    @Test func anEndlessListStopsAtTheRowCeiling() async {
        let source = Self.endless(size: 20)
        let (table, waiter) = makeTable(source, ceilings: (rows: 50, textBytes: ListState.textCeiling))
        table.start()
        await waiter.until { table.pagesLoaded == 1 }
        table.goEnd()

        #expect(await runUntilPagingRests(table, waiter) == .stopped(.rowCeiling(rows: 50)))
        #expect(table.items.count == 50)
        #expect(source.requests.count == 3)
        #expect(screen(table).contains("the list stops at 50 rows, the most a list holds"), "\(screen(table))")
    }

    @Test func anEndlessListOfHugeTitlesStopsAtTheTextCeiling() async {
        let source = Self.endless(size: 2) { "\($0) " + String(repeating: "x", count: 10_000) }
        let (table, waiter) = makeTable(source, ceilings: (rows: ListState.rowCeiling, textBytes: 100_000))
        table.start()
        await waiter.until { table.pagesLoaded == 1 }
        table.goEnd()

        #expect(await runUntilPagingRests(table, waiter) == .stopped(.textCeiling(bytes: 100_000)))
        #expect(table.items.count == 9)
        #expect(table.list.textBytes <= 100_000)
    }

    // MARK: The pace

    @Test func pagesNoKeyAskedForComeAtAPace() async {
        let clock = ManualClock()
        let source = Self.endless(size: 1)
        let (table, waiter) = makeTable(source, pagingClock: clock)
        table.start()
        await waiter.until { table.pagesLoaded == 1 }
        table.goEnd()

        // The burst: ten pages at once (the first included), then the eleventh waits for its turn on the clock.
        for _ in 0..<40 {
            table.update()
            if table.isPacingPages { break }
            let pages = table.pagesLoaded
            await waiter.until { table.pagesLoaded != pages }
        }
        #expect(table.isPacingPages)
        #expect(table.pagesLoaded == 10)
        #expect(source.requests.count == 10)

        clock.advance(by: .milliseconds(100))
        #expect(await waiter.until { table.pagesLoaded == 11 })
        #expect(source.requests.count == 11)
    }

    @Test func aLongListOfOrdinaryPagesEndsAsBefore() async {
        // The demo's list: 2,000 rows, 25 a page, followed to the end with G.
        let source = FakeItemSource(count: 2_000, pageSize: 25)
        let table = TableController(source: source, loader: FakeThumbnailLoader(),
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3),
                                                         pagingClock: ManualClock(step: .seconds(1)).read))
        let waiter = ChangeWaiter(table)
        table.resize(columns: 100, rows: 24)
        table.start()
        await waiter.until { table.pagesLoaded == 1 }
        table.goEnd()

        #expect(await runUntilPagingRests(table, waiter) == .end)
        #expect(table.items.count == 2_000)
        #expect(source.requests == Array(1...80))
        #expect(screen(table).contains("end of the list: 2000 items"))
    }
}
