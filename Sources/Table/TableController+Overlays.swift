import Cells
import Foundation

extension TableController {
    // MARK: Reuse overlay (`s`)

    /// Shows or hides the overlay of slots and counters.
    public func toggleReuseOverlay() {
        showingReuseOverlay.toggle()
        changed()
    }

    /// The counters the overlay shows: the slots' own, then those the app adds (the pipeline's).
    public var overlayCounters: [(name: String, value: Int)] {
        let c = pool.counters
        return [("slots", pool.slots.count), ("slot_reuses", c.slotReuses),
                ("stale_results_dropped", c.staleResultsDropped), ("wrong_paints", c.wrongPaints)]
            + extraCounters()
    }

    /// The overlay's lines: one per slot (id, bound row, generation, state, cancellations), then the counters.
    public func reuseOverlayLines() -> [String] {
        var lines = ["slot  row   gen  state      cancels"]
        for slot in pool.slots {
            let row = slot.boundItem.map { String($0 + 1) } ?? "-"
            func right(_ text: String, _ width: Int) -> String {
                String(repeating: " ", count: max(0, width - text.count)) + text
            }
            func left(_ text: String, _ width: Int) -> String { text.padding(toDisplayWidth: width) }
            lines.append(right(String(slot.id), 4) + "  " + left(row, 5) + " " + right(String(slot.bindingGeneration), 4)
                         + "  " + left(slot.event.rawValue, 9) + "  " + right(String(slot.cancellations), 5))
        }
        lines.append("")
        let counters = overlayCounters
        let nameWidth = counters.map(\.name.count).max() ?? 0
        for (name, value) in counters {
            lines.append(name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  \(value)")
        }
        return lines
    }

    func drawReuseOverlay(into frame: inout CellBuffer) {
        let lines = reuseOverlayLines()
        let width = min(size.columns, (lines.map(\.count).max() ?? 0) + 4)
        let top = size.rows >= 4 ? 1 : 0
        let height = min(listHeight, lines.count + 2)
        guard width >= 12, height >= 3 else { return }
        let x0 = size.columns - width
        let style = configuration.theme.footer
        frame.fill(x: x0, y: top, width: width, height: height, with: Cell(" ", style: style))
        frame.put(" Slots · s hides ", x: x0 + 1, y: top, style: style.merging(CellStyle(attributes: .bold)),
                  maxWidth: width - 2)
        // The counters matter most: when the screen is short, slot lines give way to them.
        let room = height - 2
        let shown = lines.count <= room ? lines : Array(lines.prefix(max(0, room - overlayCounters.count - 1)))
            + [""] + Array(lines.suffix(overlayCounters.count)).prefix(room)
        for (i, line) in shown.prefix(room).enumerated() {
            frame.put(line, x: x0 + 2, y: top + 1 + i, style: style, maxWidth: width - 3)
        }
    }
}
