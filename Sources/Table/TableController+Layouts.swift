/// The list, the compact list or the grid: switching keeps the selected item selected and on screen.
extension TableController {
    /// Switches between the rows (the list's or compact ones, whichever showed last) and the grid (the `v` key).
    public func toggleLayout() {
        setLayout(listLayout.mode == .grid ? listLayout.rowsMode : .grid)
    }

    /// Switches between the compact list and the list (the `c` key); from the grid, to the compact list.
    public func toggleCompact() {
        setLayout(listLayout.mode == .compact ? .list : .compact)
    }

    public func setLayout(_ mode: LayoutMode) {
        guard mode != listLayout.mode else { return }
        navigate { $0.setMode(mode, in: $1) }
    }
}
