@testable import App
import Cells
import Foundation
import Items
import Table
import Terminal
import TestSupport
import Testing

/// Each group of keys (and the mouse) drives a real table with fake sources and loaders; the tests read the state
/// the keys leave behind, or the frame, as the user would. No terminal is needed.
@MainActor
@Suite struct KeyBindingTests {
    static let screen = Terminal.Size(columns: 80, rows: 24)

    func makeTable(_ source: any ItemSource = FakeItemSource(count: 50), loader: FakeThumbnailLoader = .init(),
                   columns: Int = 80, rows: Int = 24) async -> (TableController, ChangeWaiter) {
        let (table, waiter) = await ChangeWaiter.startedTable(source, loader: loader, columns: columns, rows: rows,
                                                              helpLines: KeyTable.helpLines())
        #expect(!table.items.isEmpty)
        return (table, waiter)
    }

    /// Sends keys one after another, as the app's loop does; returns the last outcome.
    @discardableResult
    func press(_ keys: Key..., on table: TableController) -> KeyBindings.Outcome {
        var outcome = KeyBindings.Outcome.handled
        for key in keys { outcome = KeyBindings.handle(.key(key), table: table, terminalSize: Self.screen) }
        return outcome
    }

    func mouse(_ action: MouseEvent.Action, row: Int, on table: TableController) {
        _ = KeyBindings.handle(.mouse(MouseEvent(action, column: 20, row: row)), table: table,
                               terminalSize: Self.screen)
    }

    @Test func arrowsAndJKMoveOneRow() async {
        let (table, _) = await makeTable()
        press(.down, .character("j"), .character("j"), on: table)
        #expect(table.viewport.selection == 3)
        press(.up, .character("k"), on: table)
        #expect(table.viewport.selection == 1)
        press(.up, .up, .up, on: table)
        #expect(table.viewport.selection == 0, "the first row stops the selection")
        #expect(table.nextFrame().line(0).contains(" 1 / 20"))
    }

    /// No key is silent: one that does nothing where it is pressed says so, or says where it works, with the hint to
    /// `?`; the status line shows it until the next key.
    @Test func aKeyThatDoesNothingHereSaysSo() async {
        let (table, _) = await makeTable()
        press(.character("x"), on: table)
        #expect(table.status == "unknown key x · ? lists the keys")
        #expect(table.nextFrame().line(23).contains("unknown key x · ? lists the keys"))
        press(.control("t"), on: table)
        #expect(table.status == "unknown key Ctrl-T · ? lists the keys")
        press(.function(5), on: table)
        #expect(table.status == "unknown key F5 · ? lists the keys")
        press(.character("n"), on: table)
        #expect(table.status == "n shows the next item in the detail pane (Enter opens it) · ? lists the keys")
        press(.character("h"), on: table)
        #expect(table.status == "h moves across in the grid (v switches to it) · ? lists the keys")
        press(.character("j"), on: table)
        #expect(table.status == nil, "the next key clears it")
        press(.escape, on: table)
        #expect(table.status == nil, "Esc with nothing to close stays quiet")
        press(.character("o"), on: table)
        #expect(table.status == "o is off in demo --compare · ? lists the keys", "no item actions: the split screen")

        press(.enter, on: table)
        press(.character("v"), on: table)
        #expect(table.detail != nil)
        #expect(table.status == "v works in the list (Esc goes back to it) · ? lists the keys")
        press(.character("x"), on: table)
        #expect(table.status == "unknown key x · ? lists the keys")
    }

    @Test func pageKeysMoveAScreenOrHalfOne() async {
        let (table, _) = await makeTable()
        // 21 list lines, rows 4 lines tall: 5 rows fully shown per screen.
        press(.pageDown, on: table)
        #expect(table.viewport.selection == 5)
        press(.character(" "), .control("f"), on: table)
        #expect(table.viewport.selection == 15)
        press(.pageUp, on: table)
        #expect(table.viewport.selection == 10)
        press(.character("b"), .control("b"), on: table)
        #expect(table.viewport.selection == 0)
        press(.control("d"), on: table)
        #expect(table.viewport.selection == 2, "half of five rows, rounded down")
        press(.control("u"), on: table)
        #expect(table.viewport.selection == 0)
    }

    @Test func homeAndEndGoToTheFirstAndLastRow() async {
        let (table, _) = await makeTable()
        press(.end, on: table)
        #expect(table.viewport.selection == 19)
        press(.home, on: table)
        #expect(table.viewport.selection == 0 && table.viewport.top == 0)
        press(.character("G"), on: table)
        #expect(table.viewport.selection == 19)
        #expect(table.visibleRows.contains(19))
        press(.character("g"), on: table)
        #expect(table.viewport.selection == 0)
    }

    @Test func theFilterLineTakesTypingUntilEnterOrEsc() async {
        let (table, _) = await makeTable()
        press(.character("/"), on: table)
        #expect(table.isEditingFilter)
        press(.character("i"), .character("t"), .character("e"), .character("m"), .character(" "), .character("1"),
              .character("x"), on: table)
        #expect(table.filter == "item 1x")
        press(.backspace, on: table)
        #expect(table.filter == "item 1")
        #expect(table.itemCount == 11)
        press(.down, .down, on: table)
        #expect(table.viewport.selection == 2, "arrows still move while typing")
        press(.enter, on: table)
        #expect(!table.isEditingFilter && table.filter == "item 1", "Enter keeps the filter")
        #expect(table.nextFrame().lines[23].contains("filter: item 1"))
        press(.escape, on: table)
        #expect(table.filter.isEmpty && table.itemCount == 20, "Esc in the list clears a kept filter")

        press(.character("/"), .character("q"), on: table)
        #expect(table.filter == "q", "q is typed, not quit")
        press(.delete, on: table)
        #expect(table.filter.isEmpty)
        press(.character("z"), .escape, on: table)
        #expect(!table.isEditingFilter && table.filter.isEmpty, "Esc while typing clears")
    }

    @Test func helpScrollsWhenTallerThanTheScreenAndOtherKeysCloseIt() async {
        let (table, _) = await makeTable(columns: 60, rows: 15)
        press(.character("?"), on: table)
        #expect(table.showingHelp)
        _ = table.nextFrame()
        #expect(table.helpScroll.isCut)
        press(.character("j"), .down, on: table)
        #expect(table.helpScroll.top == 2)
        press(.character("k"), on: table)
        #expect(table.helpScroll.top == 1)
        press(.character("G"), on: table)
        #expect(table.helpScroll.top > 1 && table.showingHelp, "G scrolls to the end and keeps the help open")
        press(.character("x"), on: table)
        #expect(!table.showingHelp, "a key that does not scroll closes the help")
        #expect(table.viewport.selection == 0, "and does nothing else")

        let (big, _) = await makeTable(columns: 100, rows: 40)
        press(.function(1), on: big)
        #expect(big.showingHelp, "F1 opens the help too")
        _ = big.nextFrame()
        press(.character("j"), on: big)
        #expect(!big.showingHelp, "a help that fits closes on any key")
        #expect(big.viewport.selection == 0)
    }

    @Test func detailPaneKeysScrollReloadDeleteAndGoBack() async {
        let loader = FakeThumbnailLoader()
        let (table, waiter) = await makeTable(loader: loader, columns: 80, rows: 12)
        press(.down, .enter, on: table)
        let pane = table.detail
        #expect(pane?.itemIndex == 1)
        #expect(await waiter.until { if case .loaded = table.detail?.image { true } else { false } })
        _ = table.nextFrame()
        press(.character("j"), .enter, on: table)
        #expect(pane?.textScroll.top == 2, "j and Enter scroll the text")
        press(.character("k"), on: table)
        #expect(pane?.textScroll.top == 1)
        press(.character("d"), on: table)
        #expect(loader.removed.map(\.lastPathComponent) == ["1.png"])
        _ = table.nextFrame()
        press(.character("G"), on: table)
        #expect(table.nextFrame().lines.joined().contains("removed from the cache"), "G shows the end of the text")
        let started = loader.started.count
        press(.character("r"), on: table)
        #expect(table.detail?.image == .loading)
        #expect(await waiter.until { loader.started.count > started }, "r loads the image again")
        press(.character("s"), on: table)
        #expect(table.showingReuseOverlay)
        press(.character("?"), on: table)
        #expect(table.showingHelp)
        press(.character("?"), on: table)
        #expect(press(.character("q"), on: table) == .handled, "q in the pane goes back, it does not quit")
        #expect(table.detail == nil)
        for back in [Key.escape, .backspace, .left, .character("h")] {
            press(.character("l"), on: table)
            #expect(table.detail != nil, "l opens the pane")
            press(back, on: table)
            #expect(table.detail == nil, "\(back) goes back")
        }
        press(.right, on: table)
        #expect(table.detail?.itemIndex == 1, "→ opens it too")
    }

    @Test func rRetriesTheSelectedImageOrTheFailedPage() async {
        let loader = FakeThumbnailLoader(failing: ["0.png"])
        let source = FakeItemSource(count: 50, pageSize: 5, failingPages: [2])
        let (table, waiter) = await makeTable(source, loader: loader)
        table.update()
        #expect(await waiter.until { table.pool.slot(forItem: 0)?.thumbnail == .failed("not a PNG file: 0.png") })
        #expect(await waiter.until { if case .failed = table.listStatus { true } else { false } })
        let started = loader.started.filter { $0.lastPathComponent == "0.png" }.count
        press(.character("r"), on: table)
        #expect(table.pool.slot(forItem: 0)?.thumbnail == .loading)
        #expect(await waiter.until { loader.started.filter { $0.lastPathComponent == "0.png" }.count == started + 1 })

        // On the row of the failed page, Enter shows why, and r in that pane loads it again.
        press(.character("G"), .enter, on: table)
        #expect(table.pageFailure != nil)
        press(.character("j"), on: table)
        #expect(table.pageFailure != nil, "j scrolls the reason")
        press(.character("r"), on: table)
        #expect(table.pageFailure == nil)
        #expect(await waiter.until { table.items.count == 10 })
        #expect(source.requests == [1, 2, 2])
    }

    @Test func rOnTheFailedPageRowRetriesAndEscLeavesItsPane() async {
        let source = FakeItemSource(count: 50, pageSize: 5, failingPages: [2])
        let (table, waiter) = await makeTable(source)
        table.update()
        #expect(await waiter.until { if case .failed = table.listStatus { true } else { false } })
        press(.character("G"), .enter, on: table)
        #expect(table.pageFailure != nil)
        press(.escape, on: table)
        #expect(table.pageFailure == nil)
        press(.character("r"), on: table)
        #expect(await waiter.until { table.items.count == 10 })
        #expect(source.requests == [1, 2, 2])
    }

    @Test func sShowsAndHidesTheReuseOverlay() async {
        let (table, _) = await makeTable()
        press(.character("s"), on: table)
        #expect(table.showingReuseOverlay)
        #expect(table.nextFrame().lines.joined().contains("Reuse overlay · s hides"))
        press(.character("s"), on: table)
        #expect(!table.showingReuseOverlay)
    }

    @Test func pStartsTheBatchPrefetchEscCancelsItAndTheNextKeyHidesIt() async {
        let loader = FakeThumbnailLoader(gated: true)
        let (table, waiter) = await makeTable(loader: loader)
        press(.character("P"), on: table)
        #expect(table.isBatchPrefetching)
        #expect(table.batchProgress?.total == 20)
        #expect(await waiter.until { loader.pending.count >= 20 })
        press(.escape, on: table)
        #expect(!table.isBatchPrefetching && table.batchProgress?.cancelled == true)
        press(.character("j"), on: table)
        #expect(table.batchProgress == nil, "the next key hides the finished bar")
        #expect(table.viewport.selection == 1, "and does what it does")
    }

    @Test func quitAndSuspendAreTheAppsToDo() async {
        let (table, _) = await makeTable()
        #expect(press(.character("q"), on: table) == .quit(0))
        #expect(press(.control("c"), on: table) == .quit(130))
        #expect(press(.control("z"), on: table) == .suspend)
        press(.character("/"), on: table)
        #expect(press(.control("c"), on: table) == .quit(130), "Ctrl-C quits even while typing a filter")
        press(.escape, .enter, on: table)
        #expect(table.detail != nil)
        #expect(press(.control("z"), on: table) == .suspend, "Ctrl-Z suspends from the pane")
        #expect(KeyBindings.handle(.signal(SIGTERM), table: table, terminalSize: Self.screen) == .handled,
                "signals are the loop's, not the keys'")
    }

    @Test func aStatusNoteLastsUntilTheNextKey() async {
        let (table, _) = await makeTable()
        table.say("No disk cache: read-only")
        #expect(table.nextFrame().lines[23].contains("No disk cache"))
        press(.control("l"), on: table)
        #expect(table.status == nil)
        #expect(!table.nextFrame().lines[23].contains("No disk cache"))
    }

    @Test func theMouseScrollsSelectsAndOpens() async {
        let (table, _) = await makeTable()
        mouse(.wheelDown, row: 5, on: table)
        #expect(table.viewport.top == 3)
        #expect(table.viewport.selection == 3, "the selection stays on screen")
        mouse(.wheelUp, row: 5, on: table)
        #expect(table.viewport.top == 0)
        // Screen line 1 is the first list line: row 0 spans lines 1-4, row 1 lines 5-8.
        mouse(.click, row: 6, on: table)
        #expect(table.viewport.selection == 1)
        mouse(.click, row: 23, on: table)
        #expect(table.viewport.selection == 1, "a click on the status line selects nothing")
        mouse(.doubleClick, row: 10, on: table)
        #expect(table.detail?.itemIndex == 2)
        mouse(.click, row: 10, on: table)
        #expect(table.detail?.itemIndex == 2, "clicks in the pane do not leave it")

        press(.escape, .character("?"), on: table)
        _ = table.nextFrame()
        mouse(.click, row: 3, on: table)
        #expect(!table.showingHelp, "a click closes a help that fits")
    }

    @Test func aResizeTakesTheTerminalsSize() async {
        let (table, _) = await makeTable()
        _ = KeyBindings.handle(.resize, table: table, terminalSize: Terminal.Size(columns: 40, rows: 10))
        #expect(table.size.columns == 40 && table.size.rows == 10)
        #expect(table.nextFrame().lines.count == 10)
    }
}

/// The grid's keys: v switches, arrows and h/j/k/l move in two dimensions, + and - change the cells across, the
/// mouse clicks the cell under it.
@MainActor
@Suite struct GridKeyBindingTests {
    let keys = KeyBindingTests()

    func mouse(_ action: MouseEvent.Action, row: Int, column: Int, on table: TableController) {
        _ = KeyBindings.handle(.mouse(MouseEvent(action, column: column, row: row)), table: table,
                               terminalSize: KeyBindingTests.screen)
    }

    @Test func vSwitchesAndArrowsAndHJKLMoveInTwoDimensions() async throws {
        let (table, _) = await keys.makeTable()
        keys.press(.character("v"), on: table)
        let columns = try #require(table.grid).columnCount
        keys.press(.right, .character("l"), on: table)
        #expect(table.viewport.selection == 2)
        keys.press(.down, on: table)
        #expect(table.viewport.selection == 2 + columns)
        keys.press(.character("h"), .left, on: table)
        #expect(table.viewport.selection == columns)
        keys.press(.character("k"), on: table)
        #expect(table.viewport.selection == 0)
        keys.press(.character("j"), on: table)
        #expect(table.viewport.selection == columns)
        keys.press(.enter, on: table)
        #expect(table.detail?.itemIndex == columns, "Enter opens the selected picture's item")
        keys.press(.escape, .character("v"), on: table)
        #expect(table.layoutMode == .list && table.viewport.selection == columns)
        keys.press(.character("l"), on: table)
        #expect(table.detail != nil, "in the list, l still opens the item")
    }

    @Test func plusAndMinusChangeTheCellsAcrossWithinWhatTheWidthHolds() async throws {
        let (table, _) = await keys.makeTable()
        keys.press(.character("v"), on: table)
        let start = try #require(table.grid).columnCount
        keys.press(.character("-"), on: table)
        #expect(table.grid?.columnCount == start + 1, "- gives smaller pictures, more across")
        keys.press(.character("+"), .character("="), on: table)
        #expect(table.grid?.columnCount == start - 1)
        for _ in 0..<20 { keys.press(.character("+"), on: table) }
        #expect(table.grid?.columnCount == 1)
        #expect(table.nextFrame().line(23).contains("biggest"), "the status line says it cannot go further")
        for _ in 0..<40 { keys.press(.character("-"), on: table) }
        #expect(table.grid?.columnCount == GridLayout.maxColumns(width: 80))
        #expect(table.nextFrame().line(23).contains("most"))
    }

    @Test func aClickSelectsTheCellUnderItAndTheWheelScrollsByLines() async throws {
        let (table, _) = await keys.makeTable(FakeItemSource(count: 200, pageSize: 200))
        keys.press(.character("v"), on: table)
        let grid = try #require(table.grid)
        mouse(.click, row: table.listTop + 2, column: grid.cellWidth * 2 + 2, on: table)
        #expect(table.viewport.selection == 2)
        mouse(.wheelDown, row: 5, column: 5, on: table)
        #expect(table.viewport.top == 3 * grid.columnCount, "the wheel scrolls three lines of cells")
        #expect(table.visibleRows.contains(table.viewport.selection))
    }
}
