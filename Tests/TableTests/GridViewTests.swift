import Cells
import Foundation
import Items
import Table
import TestSupport
import Testing

/// The grid view: cells across the width, moving in two dimensions, the same slot rules as the list (a pool the
/// size of the screen, rebinding at a new size, paging near the bottom, prefetch in the scroll direction).
@MainActor
@Suite struct GridViewTests {
    func gridTable(_ source: any ItemSource = FakeItemSource(count: 50), loader: FakeThumbnailLoader = .init(),
                   columns: Int = 80, rows: Int = 24) async -> (TableController, ChangeWaiter) {
        await ChangeWaiter.startedTable(source, loader: loader, columns: columns, rows: rows, layout: .grid)
    }

    @Test(arguments: [(40, 20), (80, 24), (120, 40), (200, 60), (16, 6)])
    func cellsFillTheWidthAndALineFitsTheScreen(size: (columns: Int, rows: Int)) async throws {
        let (table, _) = await gridTable(columns: size.columns, rows: size.rows)
        let grid = try #require(table.grid)
        #expect(grid.columnCount * grid.cellWidth <= size.columns)
        #expect(size.columns - grid.columnCount * grid.cellWidth < grid.cellWidth, "no room left for another cell")
        #expect(grid.picture.columns == grid.cellWidth - 2 || grid.cellWidth < 3)
        #expect(grid.cellHeight <= table.listHeight, "a whole line of cells fits the list area")
        #expect(table.thumbnailBox == grid.picture, "the slots load pictures at the grid's size")
    }

    /// Issue 26, item 8: on a wide screen the grid's cells use the width, less a column or so a cell, and a picture
    /// keeps a photo's shape (about 0.42 rows a column, in cells twice as tall as wide).
    @Test(arguments: [(120, 40, 4), (200, 60, 7), (160, 50, 6), (300, 80, 11)])
    func aWideScreenIsFilledAcross(size: (columns: Int, rows: Int, across: Int)) async throws {
        let (table, _) = await gridTable(columns: size.columns, rows: size.rows)
        let grid = try #require(table.grid)
        #expect(grid.columnCount == size.across)
        #expect(size.columns - grid.columnCount * grid.cellWidth < grid.columnCount, "a leftover under a column a cell")
        let shape = Double(grid.picture.rows) / Double(grid.picture.columns)
        #expect(abs(shape - 0.42) < 0.03, "\(grid.picture): a photo's shape")
    }

    @Test func widerScreensGetMoreColumnsAndPicturesKeepARecognisableSize() async throws {
        var previous = 0
        for columns in [60, 80, 120, 160, 200, 300] {
            let (table, _) = await gridTable(columns: columns, rows: 50)
            let grid = try #require(table.grid)
            #expect(grid.columnCount >= previous, "\(columns) columns")
            #expect(grid.picture.columns >= 18, "\(columns) columns: pictures \(grid.picture.columns) wide")
            previous = grid.columnCount
        }
        #expect(previous > 3)
    }

    @Test func theRowsOnScreenAreWholeLinesOfCellsEachBoundToItsOwnSlot() async throws {
        let (table, waiter) = await gridTable(FakeItemSource(count: 200, pageSize: 200), columns: 120, rows: 40)
        let grid = try #require(table.grid)
        table.page(by: 1)
        table.update()
        let visible = table.visibleRows
        #expect(visible.lowerBound % grid.columnCount == 0)
        #expect(visible.count % grid.columnCount == 0)
        #expect(visible.count > grid.columnCount, "more than one line shows")
        #expect(await waiter.until { !table.isAnimating })
        for row in visible {
            let slot = try #require(table.pool.slot(forItem: row), "row \(row) has a slot")
            guard case .loaded(let picture) = slot.thumbnail else {
                Issue.record("row \(row) is not loaded")
                continue
            }
            #expect(picture.plainText.hasPrefix("#\(row)"))
            #expect(picture.width == grid.picture.columns && picture.height == grid.picture.rows)
        }
        #expect(table.pool.slots.count <= visible.count + table.pool.margin)
        #expect(table.pool.counters.wrongPaints == 0)
    }

    @Test func upAndDownKeepTheColumnAndLeftAndRightWrapAcrossLines() async throws {
        let (table, _) = await gridTable(FakeItemSource(count: 50, pageSize: 50))
        let columns = try #require(table.grid).columnCount
        table.moveAcross(by: 1)
        #expect(table.viewport.selection == 1)
        table.move(by: 1)
        #expect(table.viewport.selection == 1 + columns, "down keeps the column")
        table.move(by: -1)
        #expect(table.viewport.selection == 1)
        table.moveAcross(by: columns - 1)
        #expect(table.viewport.selection == columns, "right from the last column goes to the next line's first")
        table.moveAcross(by: -1)
        #expect(table.viewport.selection == columns - 1)
        table.moveAcross(by: -100)
        #expect(table.viewport.selection == 0, "left stops at the first item")
        for _ in 0..<30 { table.move(by: 1) }
        #expect(table.visibleRows.contains(table.viewport.selection), "the selection stays on screen")
        #expect(table.viewport.selection % columns == 0 || table.viewport.selection >= table.itemCount - 1)
    }

    @Test func pageDownMovesByTheLinesOnAScreen() async throws {
        let (table, _) = await gridTable(FakeItemSource(count: 500, pageSize: 500), columns: 120, rows: 40)
        let grid = try #require(table.grid)
        let linesOnScreen = table.listHeight / grid.cellHeight
        table.moveAcross(by: 2)
        table.page(by: 1)
        #expect(table.viewport.top == linesOnScreen * grid.columnCount)
        #expect(table.viewport.selection == linesOnScreen * grid.columnCount + 2, "the column is kept")
        table.moveAcross(by: 1)
        table.goEnd()
        #expect(table.viewport.selection == table.itemCount - 1, "End selects the last item, whatever the column")
        #expect(table.visibleRows.contains(table.displayCount - 1), "and shows the end row below it")
        table.goHome()
        #expect(table.viewport.selection == 0 && table.viewport.top == 0)
    }

    @Test func eachPictureSitsAboveItsCaptionAndAClickSelectsTheCellUnderIt() async throws {
        let (table, waiter) = await gridTable(FakeItemSource(count: 50, pageSize: 50))
        table.update()
        #expect(await waiter.until { !table.isAnimating })
        let frame = table.frame()
        let grid = try #require(table.grid)
        let captionLine = table.listTop + grid.picture.rows
        let text = frame.line(captionLine)
        for column in 0..<grid.columnCount {
            let x = column * grid.cellWidth + 1
            let title = table.items[column].title
            let caption = String(text.dropFirst(x).prefix(title.count))
            #expect(caption == String(title.prefix(grid.picture.columns - 1)) || caption == title,
                    "cell \(column) is captioned with its title")
            #expect(frame.line(table.listTop).dropFirst(x).hasPrefix("#\(column)"), "cell \(column)'s picture")
        }
        #expect(table.select(screenLine: table.listTop + grid.cellHeight + 1, column: grid.cellWidth + 3))
        #expect(table.viewport.selection == grid.columnCount + 1)
        #expect(!table.select(screenLine: table.listTop + 1, column: grid.columnCount * grid.cellWidth + 1)
                || grid.columnCount * grid.cellWidth + 1 >= table.size.columns,
                "beside the last column is no cell")
    }

    @Test func switchingKeepsTheSelectionAndBindsEverySlotAnewAtTheNewSize() async throws {
        let loader = FakeThumbnailLoader()
        let (table, waiter) = await ChangeWaiter.startedTable(FakeItemSource(count: 100, pageSize: 100),
                                                              loader: loader)
        for _ in 0..<20 { table.move(by: 1) }
        table.update()
        #expect(await waiter.until { !table.isAnimating })
        table.toggleLayout()
        #expect(table.layoutMode == .grid)
        #expect(table.viewport.selection == 20)
        #expect(table.visibleRows.contains(20))
        table.update()
        #expect(await waiter.until { !table.isAnimating })
        let box = try #require(table.grid).picture
        for row in table.visibleRows {
            guard case .loaded(let picture) = table.pool.slot(forItem: row)?.thumbnail else {
                Issue.record("row \(row) is not loaded")
                continue
            }
            #expect(picture.width == box.columns && picture.height == box.rows, "row \(row) at the grid's size")
        }
        table.toggleLayout()
        #expect(table.layoutMode == .list && table.viewport.selection == 20)
        #expect(table.pool.counters.wrongPaints == 0)
    }

    @Test func nearTheBottomTheNextPageLoads() async throws {
        let source = FakeItemSource(count: 200, pageSize: 20)
        let (table, waiter) = await gridTable(source)
        for _ in 0..<6 {
            table.goEnd()
            table.update()
            await waiter.until { table.listStatus != .loading }
        }
        #expect(table.pagesLoaded > 3, "pages load as the grid reaches the end")
    }

    @Test func prefetchWarmsTheNextScreenInTheScrollDirection() async throws {
        let loader = FakeThumbnailLoader()
        let clock = ManualClock()
        let (table, _) = await ChangeWaiter.startedTable(FakeItemSource(count: 300, pageSize: 300), loader: loader,
                                                         layout: .grid, clock: clock)
        table.update()
        clock.advance(by: .seconds(1))
        table.page(by: 1)
        table.update()
        let visible = table.visibleRows
        let warmed = try #require(loader.prefetched.last).map { Int($0.deletingPathExtension().lastPathComponent)! }
        #expect(Array(warmed.prefix(visible.count)) == Array(visible), "the screen first")
        #expect(Array(warmed.dropFirst(visible.count).prefix(visible.count))
                == Array(visible.upperBound..<visible.upperBound + visible.count), "then the next screen down")
        clock.advance(by: .seconds(1))
        table.page(by: -1)
        table.update()
        let back = try #require(loader.prefetched.last).map { Int($0.deletingPathExtension().lastPathComponent)! }
        let shown = table.visibleRows
        #expect(back.dropFirst(shown.count).first == shown.upperBound,
                "at the top, nothing is above: the next screen down")
    }
}
