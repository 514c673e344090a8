import Cells
import Foundation
import Items
import Table
import TestSupport
import Testing

/// A page's notes (links refused, items cut, bad UTF-8) reach the user; an empty list says why it is empty.
@MainActor
@Suite struct PageNotesTests {
    struct NotedSource: ItemSource {
        var items: [Item]
        var notes: [String]
        var name: String { "noted" }
        var attribution: String { "" }
        var firstPage: PageCursor { .number(1) }
        func page(at cursor: PageCursor) async throws -> ItemPage { ItemPage(items: items, next: nil, notes: notes) }
    }

    func run(_ source: NotedSource) async -> (TableController, String) {
        let table = TableController(source: source, loader: FakeThumbnailLoader(),
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3)))
        let waiter = ChangeWaiter(table)
        table.resize(columns: 120, rows: 20)
        table.start()
        await waiter.until { table.listStatus == .end }
        return (table, table.nextFrame().lines.joined(separator: "\n"))
    }

    @Test func aPagesNotesAreShownInTheStatusLine() async {
        let source = NotedSource(items: [Item(id: "1", title: "one")],
                                 notes: ["item 1: \"file:///etc/passwd\" was refused"])
        let (table, screen) = await run(source)
        #expect(table.pageNotes == source.notes)
        #expect(screen.contains("item 1: \"file:///etc/passwd\" was refused"), "\(screen)")
        #expect(screen.contains("end of the list: 1 item"))
    }

    @Test func anEmptyListSaysWhyInsteadOfAFailure() async {
        let source = NotedSource(items: [], notes: ["/tmp/x is empty: it has no images"])
        let (_, screen) = await run(source)
        #expect(screen.contains("— /tmp/x is empty: it has no images —"), "\(screen)")
        #expect(!screen.contains("Could not load"))
    }
}
