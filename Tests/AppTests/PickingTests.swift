@testable import App
import Cells
import Foundation
import Items
import Table
import Terminal
import TestSupport
import Testing

/// The table as a picker: Enter chooses (in the list, the grid and the detail pane), Tab marks only with `multi`,
/// marks are chosen in list order and drawn, and Esc and q end without a choice.
@MainActor
@Suite struct PickingTests {
    func pickingTable(multi: Bool, layout: LayoutMode = .list) async -> (TableController, ChangeWaiter) {
        let table = TableController(source: FakeItemSource(count: 10), loader: FakeThumbnailLoader(),
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3), layout: layout,
                                                         picking: Picking(multi: multi)))
        let waiter = ChangeWaiter(table)
        table.resize(columns: 80, rows: 24)
        table.start()
        await waiter.until { !table.items.isEmpty }
        table.update()
        return (table, waiter)
    }

    func press(_ key: Key, _ table: TableController) -> KeyBindings.Outcome {
        KeyBindings.handle(.key(key), table: table, terminalSize: .init(columns: 80, rows: 24))
    }

    @Test func enterPicksTheSelectedItemInTheListAndThePane() async {
        let (table, _) = await pickingTable(multi: false)
        _ = press(.down, table)
        #expect(press(.enter, table) == .pick([table.items[1]]))
        // In the detail pane (opened with → here: Enter picks), Enter picks the pane's item.
        _ = press(.right, table)
        #expect(table.detail?.item == table.items[1])
        #expect(press(.enter, table) == .pick([table.items[1]]))
    }

    @Test func tabMarksOnlyWithMultiAndEnterChoosesTheMarksInListOrder() async {
        let (single, _) = await pickingTable(multi: false)
        #expect(press(.tab, single) == .handled)
        #expect(single.marks.isEmpty)
        #expect(single.status?.contains("unknown key Tab") == true, "\(single.status ?? "")")

        let (table, _) = await pickingTable(multi: true)
        _ = press(.down, table)
        _ = press(.down, table)
        _ = press(.tab, table)  // marks item 2, moves to 3
        _ = press(.up, table)
        _ = press(.up, table)
        _ = press(.up, table)
        _ = press(.tab, table)  // marks item 0, moves to 1
        #expect(table.marks == [0, 2])
        #expect(press(.enter, table) == .pick([table.items[0], table.items[2]]))
        // Tab again unmarks.
        _ = press(.up, table)
        _ = press(.tab, table)
        #expect(table.marks == [2])
    }

    @Test func marksAreDrawnAndCountedInTheHeader() async {
        let (table, _) = await pickingTable(multi: true)
        _ = press(.tab, table)
        table.update()
        let lines = table.frame().lines
        #expect(lines[0].contains("1 marked"), "\(lines[0])")
        #expect(lines.contains { $0.hasPrefix(" ●") || $0.hasPrefix(" *") }, "the mark in the gutter:\n\(lines.joined(separator: "\n"))")
        #expect(lines.last?.contains("Enter picks · Tab marks") == true, "\(lines.last ?? "")")
    }

    @Test func spaceMarksInTheGridOnlyWithMulti() async {
        let (table, _) = await pickingTable(multi: true, layout: .grid)
        _ = press(.character(" "), table)
        #expect(table.marks == [0])
        let (single, _) = await pickingTable(multi: false, layout: .grid)
        _ = press(.character(" "), single)
        #expect(single.marks.isEmpty, "Space pages in a single picker's grid")
    }

    @Test func escClearsAKeptFilterThenEndsAndQEnds() async {
        let (table, _) = await pickingTable(multi: false)
        _ = press(.character("/"), table)
        _ = press(.character("1"), table)
        _ = press(.enter, table)
        #expect(table.filter == "1")
        #expect(press(.escape, table) == .handled)
        #expect(table.filter.isEmpty)
        #expect(press(.escape, table) == .quit(130))
        #expect(press(.character("q"), table) == .quit(130))
    }

    @Test func theHelpListsThePickersKeysFirst() {
        let single = KeyTable.helpLines(picking: Picking(multi: false)).map(\.keys)
        #expect(single.prefix(2) == ["Enter", "Esc  q"])
        let multi = KeyTable.helpLines(picking: Picking(multi: true)).map(\.keys)
        #expect(multi.prefix(4) == ["Enter", "Tab", "Space (grid)", "Esc  q"])
        #expect(!KeyTable.helpLines().contains { $0.keys == "Tab" })
    }
}
