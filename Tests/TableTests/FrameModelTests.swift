import Cells
import TestSupport
import Testing

@testable import Table

/// One frame model per update (issue 25, item 2): `update()` works out what is placed where once, and the frame,
/// the settling checks and the pane's picture read it; a key before the next update is never answered from a stale
/// model.
@MainActor
@Suite struct FrameModelTests {
    @Test(arguments: [LayoutMode.list, .grid])
    func theModelPlacesTheRowsOnScreenOnceInOrder(_ layout: LayoutMode) async {
        let (table, _) = await ChangeWaiter.startedTable(layout: layout)
        table.move(by: 7)
        table.update()
        let model = table.frameModel
        #expect(model.placed.map(\.row) == Array(table.visibleRows), "every row on screen, once, in order")
        #expect(model.placed.contains { $0.row == table.viewport.selection })
        #expect(zip(model.placed, model.placed.dropFirst()).allSatisfy { ($0.y, $0.x) < ($1.y, $1.x) })
        #expect(model.placed.allSatisfy { $0.y < model.listArea.height })
        #expect(model.listArea == ScreenArea(x: 0, y: table.listTop, width: 80, height: table.listHeight))
    }

    @Test func aKeyAfterTheUpdateIsNotAnsweredFromTheStaleModel() async {
        let (table, _) = await ChangeWaiter.startedTable()
        table.update()
        let before = table.frameModel.visibleRows
        table.move(by: 20)
        #expect(table.frameModel.visibleRows != before)
        #expect(table.frameModel.visibleRows.contains(table.viewport.selection))
        table.resize(columns: 60, rows: 14)
        #expect(table.frameModel.listArea.height == table.listHeight)
    }

    @Test func theOverlaysLinesAreInTheModelAndNoRowIsPlacedUnderThem() async {
        let (table, _) = await ChangeWaiter.startedTable()
        table.toggleReuseOverlay()
        for _ in 0..<6 { table.move(by: 1) }
        table.update()
        let model = table.frameModel
        #expect(model.overlayLines == table.listLayout.coveredLines && model.overlayLines > 0)
        #expect(model.placed.allSatisfy { $0.y < model.listArea.height - model.overlayLines })
        table.toggleReuseOverlay()
        table.update()
        #expect(table.frameModel.overlayLines == 0)
    }

    @Test func theDetailPanesTextIsLaidOutInTheModel() async {
        let (table, _) = await ChangeWaiter.startedTable()
        table.move(by: 2)
        table.openSelected()
        table.update()
        let text = table.frameModel.paneText
        #expect(text?.lines.contains { $0.0.contains("Item 2") } == true)
        #expect(table.frame().lines.joined().contains("Item 2"))
    }
}
