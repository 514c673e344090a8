import Cells

/// What one frame shows where, worked out once by `update()`: the rows (or grid cells) on screen and the line each
/// starts on, the lines the reuse overlay covers, and the open pane's laid-out text and picture. `frame()`, the
/// pictures in pixels (`detailPicture`) and the settling checks read it; nothing walks the rows on screen again.
public struct FrameModel {
    /// One row on screen and where it starts in the list area: in the list, a row at column 0; in the grid, a cell
    /// (the status row on a line of its own, at column 0).
    public struct Placed: Sendable, Equatable {
        public var row: Int
        public var x: Int
        public var y: Int
    }

    /// The display rows on screen: in the open lines of the list area, above what covers its bottom.
    public var visibleRows: Range<Int>
    /// The display rows in the whole list area, covered ones too: those that load, and that pages are asked for.
    public var areaRows: Range<Int>
    /// The rows on screen in the order drawn, each with its place; empty while a pane shows.
    public var placed: [Placed]
    /// The area the list (or the pane in its place) fills.
    public var listArea: ScreenArea
    /// Lines at the bottom of the list area the reuse overlay covers (0: hidden).
    public var overlayLines: Int
    /// The open pane's text laid out for the pane's size (the detail pane's, or the failed page's).
    var paneText: ScrolledText?
    /// The detail pane's loaded picture and where it is on screen, when nothing covers it.
    public var detailPicture: DetailPicture?
    /// What the model was worked out from: it stands while this is unchanged.
    let basis: Basis

    /// The state a model depends on, cheap to compare: a frame composed after a key and before the next `update()`
    /// works a model out afresh rather than read a stale one.
    struct Basis: Equatable {
        var changes: Int
        var viewport: ListViewport
        var columns: Int, rows: Int
        var mode: LayoutMode
        var displayCount: Int
        var screen: Int
        var overlay: Bool
    }
}

/// A rectangle of the screen that a view draws into.
public struct ScreenArea: Sendable, Equatable {
    public var x: Int, y: Int, width: Int, height: Int
}

/// The one contract of the table's views: each draws into the area of the frame it is given, and measures nothing
/// that the frame model has measured.
@MainActor
protocol AreaView {
    func draw(into frame: inout CellBuffer, area: ScreenArea)
}
