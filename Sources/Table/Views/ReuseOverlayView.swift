import Cells
import FoundationEssentials

/// Draws the reuse overlay (`s`): a panel across the bottom of the list area that says what it shows (a legend),
/// `wrong_paints` on a line of its own (green at 0, red above), the counters by group, the slots and their states,
/// and the latest events of the slots. The slot numbers at the rows' edges are drawn by the list and the grid.
@MainActor
struct ReuseOverlayView: AreaView {
    var slots: [RowSlot]
    var counters: [(name: String, value: Int)]
    /// The latest events, oldest first.
    var log: [String]
    var theme: Theme

    /// One line of the panel and its style.
    struct Line {
        var text: String
        var style: CellStyle
    }

    static let title = " Reuse overlay · s hides · \"slot 3\" at a row's edge: the slot drawing that row "
    static let legend = "state: loading · painted from memory/disk or downloaded · cancelled · failed"
    /// The tag drawn at the edge of a row or grid cell that a slot draws: "slot 3".
    static func tag(_ slot: RowSlot) -> String { "slot \(slot.id)" }

    /// The tag's style: the overlay's, reversed, so it stands out from the row's text.
    static func tagStyle(_ theme: Theme) -> CellStyle {
        theme.footer.merging(CellStyle(attributes: [.reverse, .bold]))
    }

    /// The width of the labels in the left column ("network ").
    private static let labelWidth = 9

    /// The panel's sections, each as lines `width` columns wide, from the most to the least needed: the title, the
    /// correctness line, the legend, the counters, the log and the slots. `draw` keeps what fits.
    func sections(width: Int) -> (title: Line, correctness: Line, legend: [Line], counters: [Line], log: [Line],
                                  slots: [Line]) {
        let groups = OverlayCounterGroups(counters)
        let plain = theme.footer
        let wrong = groups.wrongPaints ?? 0
        let correctnessDetails = groups.groups.first { $0.name == "correctness" }?.phrases ?? []
        // A newcomer's first question is whether reuse ever showed a wrong picture: this line answers it.
        let verdict = wrong == 0 ? "wrong_paints 0 (must stay 0)" : "wrong_paints \(wrong): WRONG PICTURES PAINTED"
        let correctness = Line(text: ([verdict] + correctnessDetails).joined(separator: " · "),
                               style: plain.merging(wrong == 0 ? theme.good : theme.error))
        let legend = Self.wrap(Self.legend, label: "", width: width).map { Line(text: $0, style: plain) }
        let counterLines = groups.groups.filter { $0.name != "correctness" }.flatMap { group in
            Self.wrap(group.phrases.joined(separator: " · "), label: group.name, width: width)
        }.map { Line(text: $0, style: plain) }
        let logLines = log.map { Line(text: $0, style: plain) }
        let slotLines = Self.wrap(slots.map(Self.describe).joined(separator: "  "), label: "slots", width: width,
                                  separator: "  ").map { Line(text: $0, style: plain) }
        return (Line(text: Self.title, style: plain.merging(CellStyle(attributes: [.bold, .reverse]))), correctness,
                legend, counterLines, logLines, slotLines)
    }

    /// A slot as the overlay lists it: "3 row 17 downloaded", "5 free".
    static func describe(_ slot: RowSlot) -> String {
        guard let item = slot.boundItem else { return "\(slot.id) \(slot.event.rawValue)" }
        return "\(slot.id) \(SlotLog.row(item)) \(slot.event.rawValue)"
    }

    /// Every line of the panel with room for all, in the order drawn (for tests and `reuseOverlayLines()`).
    func lines(width: Int) -> [String] {
        let s = sections(width: width)
        return ([s.title, s.correctness] + s.legend + s.counters + s.slots + Self.labelled(s.log)).map(\.text)
    }

    /// Log lines under the label "latest", on the first.
    private static func labelled(_ log: some Collection<Line>) -> [Line] {
        log.enumerated().map { i, line in
            Line(text: (i == 0 ? "latest" : "").padding(toDisplayWidth: labelWidth) + line.text, style: line.style)
        }
    }

    /// The lines that fit in `room` lines, in the order drawn. The title, the correctness line and the legend come
    /// first; then the log keeps at least three lines (or all it has), the counters take what they need of the
    /// rest, the slots are listed only whole (the rows' tags show the slots anyway), and the log gets what is left,
    /// its newest entries.
    func fitted(width: Int, room: Int) -> [Line] {
        let s = sections(width: width)
        let head = Array(([s.title, s.correctness] + s.legend).prefix(room))
        let logFirst = min(s.log.count, 3, room - head.count)
        let counters = s.counters.prefix(room - head.count - logFirst)
        let left = room - head.count - counters.count
        let slots = s.slots.count <= left - logFirst ? s.slots : []
        let logCount = min(s.log.count, left - slots.count)
        return head + counters + slots + Self.labelled(s.log.suffix(logCount))
    }

    /// The lines the panel takes over a list area `listHeight` lines tall: what it has to say, at most half of the
    /// area, or twelve lines when half is less (on 80x24, two rows stay in sight above it); 0 when the screen is
    /// too small for it.
    func wantedHeight(width: Int, listHeight: Int) -> Int {
        let cap = max(listHeight / 2, min(listHeight - 2, 12))
        let height = min(cap, lines(width: width).count)
        return width >= 20 && height >= 2 ? height : 0
    }

    /// Draws the panel in `area` (the bottom lines of the list area the frame model gave it); nothing when it has
    /// fewer than two lines or 20 columns.
    func draw(into frame: inout CellBuffer, area: ScreenArea) {
        let (width, height, y0) = (area.width, area.height, area.y)
        guard width >= 20, height >= 2 else { return }
        let lines = fitted(width: width, room: height)
        frame.fill(x: area.x, y: y0, width: width, height: height, with: Cell(" ", style: theme.footer))
        for (i, line) in lines.enumerated() {
            if i == 0 {
                frame.fill(x: area.x, y: y0, width: width, height: 1, with: Cell(" ", style: line.style))
            }
            frame.put(line.text, x: area.x + (i == 0 ? 0 : 1), y: y0 + i, style: line.style, maxWidth: width - 1)
        }
    }

    /// A labelled text wrapped at `separator`s to lines `width` columns wide, continuation lines indented under the
    /// text: "network     requests 50 · ...".
    static func wrap(_ text: String, label: String, width: Int, separator: String = " · ") -> [String] {
        let indent = label.isEmpty ? 0 : labelWidth
        let room = max(10, width - 2 - indent)
        var lines: [String] = []
        var current = ""
        for part in text.components(separatedBy: separator) {
            let joined = current.isEmpty ? part : current + separator + part
            if joined.displayWidth > room, !current.isEmpty {
                lines.append(current)
                current = part
            } else {
                current = joined
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.enumerated().map { i, line in
            (i == 0 ? label : "").padding(toDisplayWidth: indent) + line
        }
    }
}
