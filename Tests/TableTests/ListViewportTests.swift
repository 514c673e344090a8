import Table
import Testing

@Suite struct ListViewportTests {
    // Rows of height 3, except every fifth row, which is 5 tall.
    let height: (Int) -> Int = { $0 % 5 == 4 ? 5 : 3 }

    @Test func movingDownScrollsJustEnoughToShowTheSelection() {
        var viewport = ListViewport()
        // 10 lines show rows 0, 1, 2 (9 lines); row 3 needs the top to move by one.
        viewport.move(by: 3, count: 100, height: 10, rowHeight: height)
        #expect(viewport.selection == 3)
        #expect(viewport.top == 1)
    }

    @Test func movingUpPastTheTopBringsTheTopAlong() {
        var viewport = ListViewport(selection: 10, top: 10)
        viewport.move(by: -1, count: 100, height: 10, rowHeight: height)
        #expect(viewport.selection == 9)
        #expect(viewport.top == 9)
    }

    @Test func aScreenThatGrewShowsTheRowsAboveRatherThanBlankLinesBelowTheEnd() {
        // Given three rows of 3 lines scrolled to show row 1 on a 5-line screen
        var viewport = ListViewport(selection: 1, top: 1)
        // When the screen grows to 12 lines (a bigger window, the overlay's panel hidden), then row 0 comes back
        viewport.reveal(count: 3, height: 12, rowHeight: { _ in 3 })
        #expect(viewport.top == 0 && viewport.selection == 1)
        // And a screen too small for all of them keeps the selection in sight
        var small = ListViewport(selection: 2, top: 2)
        small.reveal(count: 3, height: 4, rowHeight: { _ in 3 })
        #expect(small.top == 2)
    }

    @Test func selectionIsClampedToTheList() {
        var viewport = ListViewport()
        viewport.move(by: -5, count: 100, height: 10, rowHeight: height)
        #expect(viewport.selection == 0)
        viewport.move(by: 500, count: 100, height: 10, rowHeight: height)
        #expect(viewport.selection == 99)
    }

    @Test func pageDownMovesTheViewAndTheSelectionByAScreen() {
        var viewport = ListViewport()
        viewport.page(by: 1, count: 100, height: 12, rowHeight: height)
        // 12 lines fully show rows 0..3 (3+3+3+3): a page is four rows.
        #expect(viewport.top == 4)
        #expect(viewport.selection == 4)
    }

    @Test func endShowsTheLastRowAtTheBottom() {
        var viewport = ListViewport()
        viewport.end(count: 100, height: 12, rowHeight: height)
        #expect(viewport.selection == 99)
        // Rows 97, 98, 99 are 3 + 3 + 5 = 11 lines; adding row 96 would need 14.
        #expect(viewport.top == 97)
        let visible = viewport.visibleRows(count: 100, height: 12, rowHeight: height)
        #expect(visible == 97..<100)
    }

    @Test func aClickFindsTheRowUnderTheLine() {
        let viewport = ListViewport(selection: 0, top: 3)
        #expect(viewport.row(atLine: 0, count: 100, rowHeight: height) == 3)
        #expect(viewport.row(atLine: 3, count: 100, rowHeight: height) == 4)
        #expect(viewport.row(atLine: 7, count: 100, rowHeight: height) == 4)
        #expect(viewport.row(atLine: 8, count: 100, rowHeight: height) == 5)
        #expect(viewport.row(atLine: 8, count: 5, rowHeight: height) == nil)
    }

    @Test func theWheelScrollsAndKeepsTheSelectionOnScreen() {
        var viewport = ListViewport()
        viewport.scroll(by: 3, count: 100, height: 12, rowHeight: height)
        #expect(viewport.top == 3)
        #expect(viewport.selection == 3)
    }

    @Test func aRowTallerThanTheScreenIsShownFromItsTop() {
        var viewport = ListViewport()
        viewport.move(by: 4, count: 100, height: 4, rowHeight: height)
        #expect(viewport.top == 4)
        #expect(viewport.visibleRows(count: 100, height: 4, rowHeight: height) == 4..<5)
    }

    @Test func operationsAskOnlyForRowsNearTheViewport() {
        // A million rows: a page down and an end must not walk the whole list.
        final class Counter: @unchecked Sendable { var asked = 0 }  // used from one test thread only
        let counter = Counter()
        let measured: (Int) -> Int = { row in counter.asked += 1; return row % 2 == 0 ? 3 : 4 }
        var viewport = ListViewport(selection: 500_000, top: 500_000)
        viewport.page(by: 1, count: 1_000_000, height: 60, rowHeight: measured)
        viewport.end(count: 1_000_000, height: 60, rowHeight: measured)
        #expect(counter.asked < 200)
    }
}
