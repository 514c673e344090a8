import Cells

/// Draws the status line at the bottom: the filter being typed, the keys of the pane open, the last action's note,
/// or the list's keys. A hint has shorter forms, longest first: the longest that fits shows, and only the shortest
/// is cut (with `…`), so a narrow screen loses the least needed keys first, not the end of the line.
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
        let width = frame.width
        let forms = self.forms
        let text = forms.first { (" " + $0).displayWidth <= width } ?? forms.last ?? ""
        frame.put(TextWrap.truncate(" " + text, width: width), x: 0, y: y, style: theme.status)
    }

    /// What the line says, in its forms, longest first.
    var forms: [String] {
        switch screen.beneath {
        case .filter:
            let typed = "/" + list.filter + (TerminalText.unicodeAvailable ? "▏" : "_")
            return [typed + "   Enter keeps · Esc clears", typed]
        case _ where note != nil:
            // A pane's key hints give way to the note: what a key in the pane did (a file saved) must show.
            return [note ?? ""]
        case .detail:
            return ["Esc back · n/p next/prev · w/W save · o open · y copy · r reload · ? help",
                    "Esc back · n/p · w/W save · o open · y copy · ? help",
                    "Esc · n/p · w/W · o · y · ? help", "Esc back · ? help"]
        case .pageFailure:
            return ["r or Enter retries · Esc back · j/k scroll", "r retries · Esc back", "r · Esc"]
        case .list, .help:
            return listHint
        }
    }

    /// The list's hint: the filter kept, a failed page or paging stopped, else the main keys.
    private var listHint: [String] {
        if !list.filter.isEmpty {
            let filter = "filter: \(list.filter)"
            return [filter + " · Esc clears · / edits · ? help", filter + " · Esc clears", filter]
        } else if case .failed = list.status {
            return itemSelected
                ? ["A page failed to load: G goes to its row · ? help · q quit", "A page failed: G · ? help",
                   "page failed: G"]
                : ["Enter shows why the page failed · r retries · ? help · q quit", "Enter: why · r retries · ? help",
                   "Enter · r retry"]
        } else if case .stopped(let stop) = list.status, stop.resumeCursor != nil {
            return itemSelected
                ? ["Paging stopped: G goes to the last row, r there asks again · ? help · q quit",
                   "Paging stopped: G, then r · ? help", "stopped: G, r"]
                : ["r asks for the next page again · ? help · q quit", "r asks again · ? help", "r: again"]
        } else if let picking {
            return picking.hints
        } else if mode == .grid {
            return ["arrows/hjkl move · Enter open · v list · + - size · / filter · ? help · q quit",
                    "hjkl · Enter open · v list · / filter · ? help", "Enter open · ? help", "? help"]
        } else if mode == .compact {
            return ["j/k move · Enter open · c list · + - lines · / filter · ? help · q quit",
                    "j/k · Enter open · c list · / filter · ? help", "Enter open · ? help", "? help"]
        } else {
            return ["j/k move · Enter open · / filter · r retry image · ? help · q quit",
                    "j/k · Enter open · / filter · ? help · q quit", "Enter open · ? help", "? help"]
        }
    }
}
