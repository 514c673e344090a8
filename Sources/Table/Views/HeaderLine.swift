import Cells

/// Draws the header line: the program and source names, and where the user stands (the row, the item open, a failed
/// page), in a short form when the screen is narrow.
struct HeaderLine {
    var sourceName: String
    var list: ListState
    var selection: Int
    /// What is showing: a pane says which item, or that a page failed.
    var screen: Screen
    var theme: Theme
    /// Whether G is following the end of the list as pages arrive.
    var followingEnd = false
    /// How many items are marked to be picked (`pick --multi`).
    var marked = 0

    func draw(into frame: inout CellBuffer) {
        let width = frame.width
        let itemCount = list.itemCount, loaded = list.items.count
        frame.fill(x: 0, y: 0, width: width, height: 1, with: Cell(" ", style: theme.header))
        let detailItem = screen.detail?.itemIndex, showingPageFailure = screen.pageFailure != nil
        var position: String
        if let detailItem {
            position = "item \(detailItem + 1) / \(loaded)"
        } else if showingPageFailure {
            position = "page failed"
        } else if itemCount == 0 {
            position = list.hasStatusRow && list.status == .loading ? "loading…" : "no rows"
        } else {
            let row = min(selection + 1, itemCount)
            // Where the selection stands among the rows shown, then how many are loaded and how many there are.
            position = list.filter.isEmpty
                ? "\(row) / \(loaded)"
                : "\(row) / \(itemCount) matching · \(loaded) loaded"
            if let total = list.total, total != loaded {
                position += list.totalStillCounting ? " · \(total) found so far" : " · \(total) in all"
            }
            if followingEnd { position += " · following the end" }
            if marked > 0 { position += " · \(marked) marked" }
        }
        let name = " ThumbTable · " + sourceName
        // A narrow screen gets the short form, so the program's name still shows.
        if name.displayWidth + position.displayWidth + 2 > width, itemCount > 0, detailItem == nil,
           !showingPageFailure {
            // The shortest form leaves out the total and the following, to keep " ThumbTable" whole.
            let short = "\(min(selection + 1, itemCount))/\(itemCount)"
            let total = list.total.map { $0 != loaded ? "/\($0)" : "" } ?? ""
            let forms = [(followingEnd ? "following " : "") + short + total, short + total, short]
            let program = " ThumbTable ".displayWidth
            position = forms.first { width - $0.displayWidth - 2 >= program } ?? short
        }
        let positionWidth = position.displayWidth
        frame.put(TextWrap.truncate(name, width: max(0, width - positionWidth - 2)), x: 0, y: 0, style: theme.header)
        if positionWidth + 1 <= width {
            frame.put(position, x: width - positionWidth - 1, y: 0, style: theme.header)
        }
    }
}
