import Cells

/// Draws what a list row and a grid cell share: the selection's bar down the left, the thumbnail in its box (its
/// picture's text cells where the terminal shows it so), and the slot drawing it while the reuse overlay shows.
/// The list puts its text beside, the grid its caption under.
@MainActor
struct ItemCellDrawer {
    var pool: SlotPool
    var theme: Theme
    var tick: Int
    /// Whether each row or cell shows the slot drawing it (while the reuse overlay is on).
    var showsSlots: Bool
    /// The cells that show a slot's picture in place of its text art, by the slot's binding (kitty's placeholders).
    var pictureCells: PictureCells = [:]

    /// The selection's bar: `lines` lines down from `y` at column `x`.
    func selectionBar(x: Int, y: Int, lines: Int, into buffer: inout CellBuffer) {
        let bar = TerminalText.unicodeAvailable ? "▌" : ">"
        for line in 0..<max(0, lines) { buffer.put(bar, x: x, y: y + line, style: theme.selectionMarker) }
    }

    /// The item's thumbnail as its slot holds it (loading while it has none), in `box` at (x, y): its picture's
    /// cells for the slot's binding in `pictureCells` when there are some (the same size as the text art they
    /// replace), else its text art.
    func thumbnail(ofItem index: Int, box: CellSize, x: Int, y: Int, into buffer: inout CellBuffer) {
        let slot = pool.slot(forItem: index)
        var state = slot?.thumbnail ?? .loading
        if let slot, !pictureCells.isEmpty,
           let cells = pictureCells[.slot(id: slot.id, generation: slot.bindingGeneration)] {
            state = .loaded(cells)
        }
        ThumbnailView(state: state, theme: theme, tick: tick).draw(box: box, x: x, y: y, into: &buffer)
    }

    /// The tag of the slot drawing the item ("slot 3"), ending at column `right` on line `y`, cut to `room`
    /// columns; nothing while the overlay is hidden.
    func slotTag(ofItem index: Int, right: Int, y: Int, room: Int, into buffer: inout CellBuffer) {
        guard showsSlots, let slot = pool.slot(forItem: index) else { return }
        let tag = ReuseOverlayView.tag(slot)
        buffer.put(tag, x: right - min(tag.displayWidth, room), y: y, style: ReuseOverlayView.tagStyle(theme),
                   maxWidth: room)
    }
}
