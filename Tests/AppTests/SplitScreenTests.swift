@testable import App
import Cells
import Foundation
import Table
import Terminal
import TestSupport
import Testing

/// `demo --compare`'s screen: two tables of half the width under a line naming each side, a divider between, and
/// every key to both so they stay in step. Real tables over fake sources and loaders; no terminal.
@MainActor
@Suite struct SplitScreenTests {
    static let screen = Terminal.Size(columns: 101, rows: 24)

    func makeSplit() async -> SplitScreen {
        let (naive, _) = await ChangeWaiter.startedTable(columns: 50, rows: 23)
        let (ours, _) = await ChangeWaiter.startedTable(columns: 50, rows: 23)
        let split = SplitScreen(naive: naive, ours: ours)
        split.resize(columns: Self.screen.columns, rows: Self.screen.rows)
        return split
    }

    @Test func eachHalfIsNamedAndDividedAndHalfTheWidth() async {
        let split = await makeSplit()
        #expect(split.naive.size == (50, 23))
        #expect(split.ours.size == (50, 23))
        let frame = split.composeFrame(columns: Self.screen.columns, rows: Self.screen.rows)
        #expect(frame.line(0).hasPrefix(" 0 wrong pictures · naive: no cancel"))
        #expect(frame.line(0).contains("│ 0 wrong pictures · ThumbTable"))
        for y in 1..<Self.screen.rows { #expect(frame.line(y).dropFirst(50).hasPrefix("│"), "line \(y)") }
        // Each half shows its own table's header, at the first row (half a screen holds the whole position).
        #expect(frame.line(1).prefix(50).hasSuffix(" 1 / 20 · 50 in all "))
        #expect(frame.line(1).dropFirst(51).hasSuffix(" 1 / 20 · 50 in all "))
    }

    /// Each side's name follows how many of its rows show a wrong picture now and how many it painted so far.
    @Test func eachSidesTitleCountsWrongPictures() {
        #expect(SplitScreen.title("naive", now: 0, sofar: 0) == "0 wrong pictures · naive")
        #expect(SplitScreen.title("naive", now: 2, sofar: 10) == "2 WRONG NOW, 10 so far · naive")
        #expect(SplitScreen.title("naive", now: 0, sofar: 3) == "0 wrong now, 3 so far · naive")
    }

    @Test func keysMoveBothHalvesInStepAndQuitComesFromThumbTablesSide() async {
        let split = await makeSplit()
        for key in [Key.pageDown, .down, .down, .pageUp, .end] {
            #expect(split.handle(.key(key), terminalSize: Self.screen) == .handled)
            #expect(split.naive.viewport == split.ours.viewport)
        }
        #expect(split.ours.viewport.selection > 0)
        #expect(split.handle(.key(.character("q")), terminalSize: Self.screen) == .quit(0))
    }
}
