import Items
import Testing

@testable import Table

/// A note about one item names it by the row the header numbers (issue 26, item 6): the source gives the item's
/// place in its page, and the list adds the rows loaded before the page.
@Suite struct ItemNoteRowTests {
    static func page(_ first: Int, _ count: Int, next: Int?, itemNotes: [ItemNote] = []) -> ItemPage {
        ItemPage(items: (first..<first + count).map { Item(id: "\($0)", title: "thing \($0)") },
                 next: next.map { .number($0) }, notes: [], itemNotes: itemNotes)
    }

    static func refused(_ index: Int) -> ItemNote {
        ItemNote(index: index, text: "\"file:///etc/passwd\" was refused", countedAs: "refused links")
    }

    @Test func theSixthItemOfTheSecondPageIsRow13() {
        var list = ListState(firstPage: .number(1))
        #expect(list.append(Self.page(1, 7, next: 2, itemNotes: [Self.refused(0)]), from: .number(1))
                == "row 1: \"file:///etc/passwd\" was refused")
        let said = list.append(Self.page(8, 7, next: nil, itemNotes: [Self.refused(5)]), from: .number(2))
        #expect(said == "row 13: \"file:///etc/passwd\" was refused")
        #expect(list.items[12].title == "thing 13", "row 13 is the item the note is about")
        #expect(list.pageNotes.last == said)
    }

    @Test func thePagesOwnNotesComeFirstAndMoreThanTwoItemsAreCounted() {
        var list = ListState(firstPage: .number(1))
        _ = list.append(Self.page(1, 10, next: 2), from: .number(1))
        var page = Self.page(11, 10, next: nil, itemNotes: [0, 3, 4, 9].map(Self.refused))
        page.notes = ["the list stops here"]
        let said = list.append(page, from: .number(2))
        #expect(said == "the list stops here · row 11: \"file:///etc/passwd\" was refused · "
                + "row 14: \"file:///etc/passwd\" was refused · and 2 more rows with refused links")
    }

    @Test func notesOfDifferentKindsAreCountedAsNotes() {
        let notes = [Self.refused(0), Self.refused(1), Self.refused(2),
                     ItemNote(index: 3, text: "title cut", countedAs: "cut titles")]
        #expect(ListState.worded(notes, firstRow: 1).last == "and 2 more rows with notes")
    }

    @Test func aNoteAboutAnItemNotKeptIsDropped() {
        // The second page repeats the first one's rows: they are not kept, so no row is named for them.
        var list = ListState(firstPage: .number(1))
        _ = list.append(Self.page(1, 3, next: 2), from: .number(1))
        let said = list.append(Self.page(1, 3, next: 3, itemNotes: [Self.refused(1)]), from: .number(2))
        #expect(list.items.count == 3)
        #expect(said?.contains("row ") == false, "\(said ?? "nil")")
    }
}
