import Items

extension TableController {
    /// Marks the selected item, or unmarks it, and moves on to the next (as fzf's Tab): down a row in the list, across
    /// in the grid. Only while picking several (`Picking.multi`); false when no item is selected.
    @discardableResult
    public func toggleMark() -> Bool {
        guard configuration.picking?.multi == true, let (index, _) = selectedItem else { return false }
        if marks.remove(index) == nil { marks.insert(index) }
        if layoutMode == .grid { moveAcross(by: 1) } else { move(by: 1) }
        changed()
        return true
    }

    /// What Enter chooses while picking: the marked items in list order, else the selected one; empty when neither
    /// is there (the selection on the status row).
    public var chosenItems: [Item] {
        if !marks.isEmpty { return marks.sorted().map { items[$0] } }
        return selectedItem.map { [$0.item] } ?? []
    }
}
