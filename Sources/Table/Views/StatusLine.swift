import Cells

/// Draws the status line at the bottom: the filter being typed, the keys of the pane open, the last action's note,
/// or the list's keys.
struct StatusLine {
    var list: ListState
    /// What is showing; under the help, the screen beneath it says.
    var screen: Screen
    /// The one-line note of the last action.
    var note: String?
    /// Whether the selection is on an item row (not the status row).
    var itemSelected: Bool
    /// The list or the grid: the keys that move differ.
    var mode: LayoutMode
    var theme: Theme
    /// Set when the table is a picker: the list's hint says how to pick.
    var picking: Picking?

    func draw(into frame: inout CellBuffer, y: Int) {
        let text: String
        switch screen.beneath {
        case .filter:
            text = "/" + list.filter + (TerminalText.unicodeAvailable ? "▏" : "_") + "   Enter keeps · Esc clears"
        case _ where note != nil:
            // A pane's key hints give way to the note: what a key in the pane did (a file saved) must show.
            text = note ?? ""
        case .detail:
            text = "Esc back · n/p next/prev · w/W save · o open · y copy · r reload · ? help"
        case .pageFailure:
            text = "r or Enter retries · Esc back · j/k scroll"
        case .list, .help:
            text = listHint
        }
        frame.put(TextWrap.truncate(" " + text, width: frame.width), x: 0, y: y, style: theme.status)
    }

    /// The list's hint: the filter kept, a failed page or paging stopped, else the main keys.
    private var listHint: String {
        let text: String
        if !list.filter.isEmpty {
            text = "filter: \(list.filter) · Esc clears · / edits · ? help"
        } else if case .failed = list.status {
            text = itemSelected
                ? "A page failed to load: G goes to its row · ? help · q quit"
                : "Enter shows why the page failed · r retries · ? help · q quit"
        } else if case .stopped(let stop) = list.status, stop.resumeCursor != nil {
            text = itemSelected
                ? "Paging stopped: G goes to the last row, r there asks again · ? help · q quit"
                : "r asks for the next page again · ? help · q quit"
        } else if let picking {
            text = picking.hint
        } else {
            text = mode == .grid ? "arrows/hjkl move · Enter open · v list · + - size · / filter · ? help · q quit"
                : "j/k move · Enter open · / filter · r retry image · ? help · q quit"
        }
        return text
    }
}
