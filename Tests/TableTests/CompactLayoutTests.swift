import Cells
import Foundation
import Items
import TestSupport
import Testing

@testable import Table

/// The compact list (issue 26, item 8): rows one to three lines high with a small thumbnail, many more on a screen
/// than the list's, through the same slots, and switched to and from the list and the grid keeping the selection.
@MainActor
@Suite struct CompactLayoutTests {
    func compactTable(columns: Int, rows: Int, count: Int = 300) async -> (TableController, ChangeWaiter) {
        await ChangeWaiter.startedTable(FakeItemSource(count: count, pageSize: 100), columns: columns, rows: rows,
                                        layout: .compact)
    }

    /// Item rows wholly on screen (the status row and a row cut by the list's bottom not counted).
    func itemRowsOnScreen(_ table: TableController) -> Int {
        table.update()
        return table.frameModel.placed.filter { place in
            guard let index = table.itemIndex(forRow: place.row) else { return false }
            return place.y + table.layout.contentHeight(for: table.items[index]) <= table.listHeight
        }.count
    }

    @Test(arguments: [(120, 40, 18), (200, 60, 28), (80, 24, 10), (30, 8, 2)])
    func rowsPerScreen(size: (columns: Int, rows: Int, expected: Int)) async {
        let (table, _) = await compactTable(columns: size.columns, rows: size.rows)
        // Two lines a row, no blank line between rows: the list area's lines halved.
        #expect(table.listHeight / 2 == size.expected)
        #expect(itemRowsOnScreen(table) == size.expected, "\(size.columns)x\(size.rows)")
    }

    @Test func compactShowsFarMoreRowsThanTheListZoomedAllTheWayOut() async {
        let (table, _) = await compactTable(columns: 120, rows: 40)
        let compact = itemRowsOnScreen(table)
        table.setLayout(.list)
        for _ in 0..<10 { table.zoom(by: -1) }
        let list = itemRowsOnScreen(table)
        #expect(compact > 10 && compact >= list * 3 / 2, "compact \(compact) rows, the list at its smallest \(list)")
    }

    @Test func aCompactRowIsItsThumbnailHighWithTitleAndSubtitleBesideIt() async throws {
        let (table, _) = await compactTable(columns: 120, rows: 40)
        let layout = table.layout
        let thumbnail = try #require(layout.thumbnail)
        #expect(thumbnail == ThumbnailSizing.shape(rows: 2), "the list's photo shape, two lines high")
        #expect(thumbnail.columns <= 5)
        #expect(table.thumbnailBox == thumbnail, "the slots load pictures at the compact size")
        let item = Item(id: "x", title: String(repeating: "long title ", count: 20), subtitle: "a subtitle",
                        attribution: "an attribution")
        let text = layout.textLines(for: item)
        #expect(text.title.count == 1 && text.title[0].hasSuffix("…"), "the title cut on one line")
        #expect(text.subtitle == "a subtitle" && text.attribution == nil)
        #expect(layout.height(for: item) == 2 && layout.gap == 0)
    }

    @Test func zoomInCompactIsLinesARowFromOneToThree() async throws {
        let (table, _) = await compactTable(columns: 120, rows: 40)
        table.zoom(by: -1)
        #expect(table.layout.compactLines == 1 && itemRowsOnScreen(table) == table.listHeight)
        #expect(table.status == "compact rows of 1 line")
        let item = Item(id: "x", title: "Title", subtitle: "the subtitle")
        let oneLine = table.layout.textLines(for: item)
        #expect(oneLine.subtitleBeside && oneLine.subtitle == "the subtitle", "one line: the subtitle beside")
        #expect(table.nextFrame().lines.contains { $0.contains(/Item \d+  subtitle \d+/) })
        table.zoom(by: -1)
        #expect(table.status?.contains("smallest") == true)
        table.zoom(by: 3)
        #expect(table.layout.compactLines == 3 && table.status?.contains("largest") == true)
        #expect(try #require(table.layout.thumbnail).rows == 3)
        table.setLayout(.list)
        #expect(table.layout.compactLines == nil, "the list's rows again, its own zoom untouched")
    }

    @Test func switchingKeepsTheSelectedItemSelectedAndOnScreen() async {
        let (table, _) = await compactTable(columns: 120, rows: 40)
        table.move(by: 30)
        #expect(table.viewport.selection == 30)
        for (mode, expected) in [(LayoutMode.list, LayoutMode.list), (.compact, .compact), (.grid, .grid)] {
            table.setLayout(mode)
            table.update()
            #expect(table.layoutMode == expected)
            #expect(table.viewport.selection == 30)
            #expect(table.frameModel.visibleRows.contains(30), "\(mode): the selection shows")
        }
        table.toggleCompact()
        #expect(table.layoutMode == .compact, "c from the grid goes to the compact list")
        table.toggleLayout()
        table.toggleLayout()
        #expect(table.layoutMode == .compact, "v from the grid goes back to the rows shown last")
        table.toggleCompact()
        #expect(table.layoutMode == .list)
    }

    @Test func theSlotPoolAndThePrefetchFollowTheRowsOnScreen() async {
        let (table, waiter) = await compactTable(columns: 200, rows: 60)
        table.update()
        #expect(await waiter.until { !table.isAnimating })
        let onScreen = table.frameModel.visibleRows.count
        #expect(onScreen >= 28)
        #expect(table.pool.slots.count >= onScreen, "a slot for every row on screen")
        #expect(table.pool.slots.count <= onScreen + table.configuration.slotMargin)
        for row in table.frameModel.visibleRows where table.itemIndex(forRow: row) != nil {
            #expect(table.pool.slot(forItem: row) != nil, "row \(row) has a slot")
        }
    }

    @Test func theFilterTheEndAndThePaneWorkAsInTheList() async {
        let (table, waiter) = await compactTable(columns: 120, rows: 40)
        table.beginFilter()
        for c in "item 7" { table.editFilter(appending: c) }
        table.endFilterEditing()
        #expect(await waiter.until { table.items.count > 5 })
        table.update()
        let titles = table.frameModel.visibleRows.compactMap { row in
            table.itemIndex(forRow: row).map { table.items[$0].title }
        }
        #expect(!titles.isEmpty && titles.allSatisfy { $0.hasPrefix("Item 7") }, "\(titles)")
        #expect(table.layoutMode == .compact && table.layout.compactLines == 2)
        table.clearFilter()
        table.goEnd()
        table.stopFollowingEnd()
        table.update()
        #expect(table.viewport.selection == table.itemCount - 1, "G selects the last item")
        #expect(table.frameModel.visibleRows.contains(table.viewport.selection))
        table.openSelected()
        #expect(table.detail != nil)
        table.openAdjacent(by: -1)
        table.closeDetail()
        table.update()
        #expect(table.viewport.selection == table.itemCount - 2, "p moved the list's selection")
        #expect(table.frameModel.visibleRows.contains(table.viewport.selection) && table.layoutMode == .compact)
    }
}
