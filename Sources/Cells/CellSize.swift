/// A size in terminal cells: a thumbnail's box, the grid a picture is drawn at. The one cell-size type from the
/// table's layout to the renderer's fit.
public struct CellSize: Sendable, Hashable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    public var description: String { "\(columns)x\(rows)" }
}
