import Cells
import Foundation

/// Draws the overlay of slots and counters (`s`): one line per slot, then the counters, in a box at the top right.
@MainActor
struct ReuseOverlayView {
    var slots: [RowSlot]
    var counters: [(name: String, value: Int)]
    var theme: Theme

    /// The overlay's lines: one per slot (id, bound row, generation, state, cancellations), then the counters.
    func lines() -> [String] {
        var lines = ["slot  row   gen  state      cancels"]
        func right(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        func left(_ text: String, _ width: Int) -> String { text.padding(toDisplayWidth: width) }
        for slot in slots {
            let row = slot.boundItem.map { String($0 + 1) } ?? "-"
            lines.append(right(String(slot.id), 4) + "  " + left(row, 5) + " " + right(String(slot.bindingGeneration), 4)
                         + "  " + left(slot.event.rawValue, 9) + "  " + right(String(slot.cancellations), 5))
        }
        lines.append("")
        let nameWidth = counters.map(\.name.count).max() ?? 0
        for (name, value) in counters {
            lines.append(name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  \(value)")
        }
        return lines
    }

    /// Draws the box over the list area, which starts on line `top` and is `height` lines tall.
    func draw(into frame: inout CellBuffer, top: Int, height listHeight: Int) {
        let lines = lines()
        let width = min(frame.width, (lines.map(\.count).max() ?? 0) + 4)
        let height = min(listHeight, lines.count + 2)
        guard width >= 12, height >= 3 else { return }
        let x0 = frame.width - width
        let style = theme.footer
        frame.fill(x: x0, y: top, width: width, height: height, with: Cell(" ", style: style))
        frame.put(" Slots · s hides ", x: x0 + 1, y: top, style: style.merging(CellStyle(attributes: .bold)),
                  maxWidth: width - 2)
        // The counters matter most: when the screen is short, slot lines give way to them.
        let room = height - 2
        let shown = lines.count <= room ? lines : Array(lines.prefix(max(0, room - counters.count - 1)))
            + [""] + Array(lines.suffix(counters.count)).prefix(room)
        for (i, line) in shown.prefix(room).enumerated() {
            frame.put(line, x: x0 + 2, y: top + 1 + i, style: style, maxWidth: width - 3)
        }
    }
}
