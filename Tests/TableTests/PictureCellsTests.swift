import Cells
import TestSupport
import Testing

@testable import Table

/// Pictures that are text cells (kitty's Unicode placeholders): the frame draws the cells it is handed in place of a
/// slot's text art, by the slot's binding, and the frame model lists the pictures a row cut by the list's bottom or
/// under the help shows in part.
@MainActor
@Suite struct PictureCellsTests {
    func settledTable(rows: Int = 24) async -> TableController {
        let (table, waiter) = await ChangeWaiter.startedTable(rows: rows)
        table.update()
        await waiter.until { !table.isAnimating }
        table.update()
        return table
    }

    @Test func aSlotsCellsReplaceItsTextArtOnlyForItsBinding() async throws {
        let table = await settledTable()
        let first = try #require(table.screenPictures.first)
        let footprint = first.footprint
        let cells = CellBuffer(width: footprint.columns, height: footprint.rows, fill: Cell("@"))
        let plain = table.frame()
        let drawn = table.frame(pictureCells: [first.owner: cells])
        for y in 0..<plain.height {
            for x in 0..<plain.width {
                let inside = footprint.lines.contains(y) && (footprint.x..<footprint.x + footprint.columns).contains(x)
                #expect(drawn[x, y] == (inside ? Cell("@") : plain[x, y]), "cell \(x), \(y)")
            }
        }
        // The same slot under an earlier binding: nothing of it is drawn.
        guard case .slot(let id, let generation) = first.owner else { return }
        #expect(table.frame(pictureCells: [.slot(id: id, generation: generation - 1): cells]) == plain)
    }

    @Test func aRowCutByTheBottomOrUnderTheHelpIsListedAsShownInPart() async throws {
        let table = await settledTable(rows: 12)
        let pictures = table.screenPictures
        let area = table.frameModel.listArea
        let cut = pictures.filter { $0.footprint.y + $0.footprint.rows > area.y + area.height }
        #expect(!cut.isEmpty && cut.allSatisfy { !$0.isWhole }, "\(pictures.map(\.footprint))")
        #expect(pictures.filter(\.isWhole).count == pictures.count - cut.count)
        table.toggleHelp()
        table.update()
        #expect(table.screenPictures.map(\.owner) == pictures.map(\.owner))
        #expect(table.screenPictures.allSatisfy { !$0.isWhole }, "the help covers part of every picture")
    }
}

extension PictureFootprint {
    fileprivate var lines: Range<Int> { y..<(y + rows) }
}
