import Cells
import Foundation

/// What a row slot asks for: the thumbnail of an image, drawn as text cells of a given size.
///
/// The table knows nothing of networks, codecs or caches: the app supplies a loader, and the table owns when a
/// load starts, when it is cancelled, and whether its result may still be painted.
public protocol ThumbnailLoading: Sendable {
    /// The image at `url` rendered to fit `columns` x `rows` cells. Throws a readable error; honours cancellation.
    func thumbnail(for url: URL, columns: Int, rows: Int) async throws -> CellBuffer
}

/// The size of a thumbnail block in cells.
public struct ThumbnailSize: Sendable, Hashable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// Parses `COLSxROWS` (e.g. `12x5`).
    public init?(_ text: String) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let c = Int(parts[0]), let r = Int(parts[1]), c > 0, r > 0, c <= 1000, r <= 1000
        else { return nil }
        self.init(columns: c, rows: r)
    }

    public var description: String { "\(columns)x\(rows)" }
}
