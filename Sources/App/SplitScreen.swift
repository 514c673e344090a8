import Cells
import Table
import Terminal

/// `demo --compare`: two tables side by side, the naive one (`SlotBindingPolicy.naive`, the bug on purpose) on the
/// left and ThumbTable on the right, each half the width, under a line naming each side, with a divider between.
///
/// Both get every key, so they stay in step: the same scroll, the same panes, the same filter.
@MainActor
final class SplitScreen {
    let naive: TableController
    let ours: TableController
    static let naiveTitle = "naive: no cancel, no generation check"
    static let oursTitle = "ThumbTable"

    init(naive: TableController, ours: TableController) {
        self.naive = naive
        self.ours = ours
    }

    var tables: [TableController] { [naive, ours] }

    /// The left half's width for a screen `columns` wide; the right half has the rest less the divider.
    static func halves(columns: Int) -> (left: Int, right: Int) {
        let left = max(0, (columns - 1) / 2)
        return (left, max(0, columns - 1 - left))
    }

    /// Gives each half its share of the screen, less the line that names the sides.
    func resize(columns: Int, rows: Int) {
        let (left, right) = Self.halves(columns: columns)
        naive.resize(columns: left, rows: max(0, rows - 1))
        ours.resize(columns: right, rows: max(0, rows - 1))
    }

    /// Sends an event to both halves; ThumbTable's side decides the outcome (a quit, a suspend). A resize is the
    /// split's, and a click goes to both at the same place in each half.
    func handle(_ event: InputEvent, terminalSize: Terminal.Size) -> KeyBindings.Outcome {
        if event == .resize {
            resize(columns: terminalSize.columns, rows: terminalSize.rows)
            return .handled
        }
        var event = event
        if case .mouse(var mouse) = event {
            let (left, _) = Self.halves(columns: terminalSize.columns)
            if mouse.column > left { mouse.column -= left + 1 }
            mouse.row -= 1
            event = .mouse(mouse)
        }
        _ = KeyBindings.handle(event, table: naive, terminalSize: terminalSize)
        return KeyBindings.handle(event, table: ours, terminalSize: terminalSize)
    }

    /// A side's name after, first thing, how many of its rows show a wrong picture now and how many wrong pictures
    /// it has painted so far (`wrong_paints`: a late one is often painted over by the right one a moment later).
    static func title(_ name: String, of table: TableController) -> String {
        title(name, now: table.picturesOnScreen.wrong, sofar: table.slotCounters.wrongPaints)
    }

    static func title(_ name: String, now: Int, sofar: Int) -> String {
        let count = sofar == 0 ? "0 wrong pictures" : now == 0 ? "0 wrong now, \(sofar) so far"
            : "\(now) WRONG NOW, \(sofar) so far"
        return count + " · " + name
    }

    /// Updates both tables and composes the screen: the sides' names, the naive table, the divider, ThumbTable.
    func composeFrame(columns: Int, rows: Int) -> CellBuffer {
        var frame = CellBuffer(width: columns, height: rows)
        let (left, _) = Self.halves(columns: columns)
        let theme = ours.configuration.theme
        naive.update()
        ours.update()
        frame.fill(x: 0, y: 0, width: columns, height: 1, with: Cell(" ", style: theme.header))
        frame.put(" " + Self.title(Self.naiveTitle, of: naive), x: 0, y: 0, style: theme.header, maxWidth: left)
        frame.put(" " + Self.title(Self.oursTitle, of: ours), x: left + 1, y: 0, style: theme.header,
                  maxWidth: max(0, columns - left - 1))
        frame.draw(naive.frame(), x: 0, y: 1)
        for y in 0..<rows { frame.put("│", x: left, y: y, style: theme.header) }
        frame.draw(ours.frame(), x: left + 1, y: 1)
        return frame
    }
}
