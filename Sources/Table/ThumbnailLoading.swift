import Cells
import Foundation

/// What a row slot asks for: the thumbnail of an image, drawn as text cells of a given size.
///
/// The table knows nothing of networks, codecs or caches: the app supplies a loader, and the table owns when a
/// load starts, when it is cancelled, and whether its result may still be painted.
public protocol ThumbnailLoading: Sendable {
    /// The image at `url` rendered to fit `columns` x `rows` cells. Throws a readable error; honours cancellation.
    func thumbnail(for url: URL, columns: Int, rows: Int) async throws -> CellBuffer
    /// The picture, if it is ready in memory now: a row scrolled back into view is drawn in the same frame.
    func cachedThumbnail(for url: URL, columns: Int, rows: Int) -> CellBuffer?
    /// Warms these pictures at low priority; those not listed any more are cancelled. Each call replaces the last.
    func prefetch(_ urls: [URL], columns: Int, rows: Int)
    /// Forgets an image in every cache, so the next load fetches it again.
    func removeFromCache(_ url: URL)
    /// Fetches a picture into the caches at batch priority, below the rows on screen (the `P` key).
    func warm(_ url: URL, columns: Int, rows: Int) async throws
}

extension ThumbnailLoading {
    public func cachedThumbnail(for url: URL, columns: Int, rows: Int) -> CellBuffer? { nil }
    public func prefetch(_ urls: [URL], columns: Int, rows: Int) {}
    public func removeFromCache(_ url: URL) {}
    public func warm(_ url: URL, columns: Int, rows: Int) async throws {
        _ = try await thumbnail(for: url, columns: columns, rows: rows)
    }
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
