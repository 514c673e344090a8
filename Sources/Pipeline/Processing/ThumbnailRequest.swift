import Cells
import FoundationEssentials
import TextArt

/// One picture to show: an image URL drawn as text art in a box of cells.
///
/// Equal requests are one piece of work: they share a download, a decode and a render, and one cache entry.
public struct ThumbnailRequest: Sendable, Hashable, CustomStringConvertible {
    public var url: URL
    /// The box the picture is fitted into.
    public var size: CellSize
    public var options: TextArtOptions

    public init(url: URL, size: CellSize, options: TextArtOptions) {
        self.url = url
        self.size = size
        self.options = options
    }

    public var description: String { "\(url.absoluteString) at \(size) \(options.mode.rawValue)" }
}

/// How urgently a request is wanted. Downloads start in this order.
public enum RequestPriority: Int, Sendable, Comparable {
    /// Rows near the viewport, fetched ahead of need.
    case prefetch
    /// Batch prefetch of every loaded row.
    case batch
    /// Rows on screen and the detail pane.
    case visible

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}
