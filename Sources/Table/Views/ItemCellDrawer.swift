import Cells

/// Draws what a list row and a grid cell share: the selection's bar down the left, the thumbnail in its box, and
/// the slot drawing it while the reuse overlay shows. The list puts its text beside, the grid its caption under.
@MainActor
struct ItemCellDrawer {
    var pool: SlotPool
    var theme: Theme
    var tick: Int
    /// Whether each row or cell shows the slot drawing it (while the reuse overlay is on).
    var showsSlots: Bool

    /// The selection's bar: `lines` lines down from `y` at column `x`.
    func selectionBar(x: Int, y: Int, lines: Int, into buffer: inout CellBuffer) {
        let bar = TerminalText.unicodeAvailable ? "▌" : ">"
        for line in 0..<max(0, lines) { buffer.put(bar, x: x, y: y + line, style: theme.selectionMarker) }
    }

    /// The item's thumbnail as its slot holds it (loading while it has none), in `box` at (x, y).
    func thumbnail(ofItem index: Int, box: CellSize, x: Int, y: Int, into buffer: inout CellBuffer) {
        ThumbnailView(state: pool.slot(forItem: index)?.thumbnail ?? .loading, theme: theme, tick: tick)
            .draw(box: box, x: x, y: y, into: &buffer)
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
