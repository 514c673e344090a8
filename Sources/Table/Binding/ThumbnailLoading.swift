import Cells
import FoundationEssentials

/// What a row slot asks for: the thumbnail of an image, drawn as text cells of a given size.
///
/// The table knows nothing of networks, codecs or caches: the app supplies a loader, and the table owns when a
/// load starts, when it is cancelled, and whether its result may still be painted.
public protocol ThumbnailLoading: Sendable {
    /// The image at `url` drawn to fit `size`: ready now from memory (a row scrolled back into view is drawn in the
    /// same frame), or a load to await, which throws a readable error and honours cancellation. The memory cache is
    /// looked at once, here.
    func thumbnail(_ url: URL, size: CellSize) -> ThumbnailLoad
    /// Warms these pictures at low priority; those not listed any more are cancelled. Each call replaces the last.
    func prefetch(_ urls: [URL], size: CellSize)
    /// Forgets an image in every cache, so the next load fetches it again.
    func removeFromCache(_ url: URL)
    /// Forgets a failure the loader remembers for `url` (a 404 is not asked again in a run), so that the next load
    /// (the `r` key) tries again.
    func forgetFailure(_ url: URL)
    /// Fetches a picture into the caches at batch priority, below the rows on screen (the `P` key).
    func warm(_ url: URL, size: CellSize) async throws
    /// Where the download of `url` stands now, if one is under way: for the reuse overlay's log, read when a slot
    /// cancels its load. Nil when none is under way (the picture comes from a cache, is being decoded, or the loader
    /// does not say).
    func download(of url: URL) -> DownloadStanding?
    /// How long a load typically takes to arrive once started, for deciding whether a prefetch can land before the
    /// scroll gets to its row; nil when the loader has not measured it yet.
    var typicalLatency: Duration? { get }
    /// The image's bytes as the server or the file gave them, for saving (the `w` key): from the caches when they
    /// are there, else fetched; throws a readable error.
    func original(_ url: URL) async throws -> OriginalImage
    /// The picture at `url` drawn to fit `size` as an animation, for the detail pane to play; nil for a still
    /// picture. Asked once the still picture is on screen, so its bytes are at hand.
    func animation(_ url: URL, size: CellSize) async -> (any AnimationFrameSource)?
}

/// An image's bytes as they came, and the file extension of the format they are in (nil when they are no format
/// the decoders know).
public struct OriginalImage: Sendable, Equatable {
    public var bytes: [UInt8]
    public var fileExtension: String?

    public init(bytes: [UInt8], fileExtension: String?) {
        self.bytes = bytes
        self.fileExtension = fileExtension
    }
}

/// Why a loader cannot give an image's original bytes.
public struct OriginalUnavailable: Error, CustomStringConvertible {
    public var description: String { "this loader keeps no original bytes" }
}

/// Where a download under way stands: waiting for a connection, or receiving bytes.
public enum DownloadStanding: Sendable, Equatable {
    case waiting
    case receiving(bytes: Int)
}

extension ThumbnailLoading {
    public func prefetch(_ urls: [URL], size: CellSize) {}
    public func removeFromCache(_ url: URL) {}
    public func forgetFailure(_ url: URL) {}
    public func warm(_ url: URL, size: CellSize) async throws {
        _ = try await thumbnail(url, size: size).value()
    }
    public func download(of url: URL) -> DownloadStanding? { nil }
    public var typicalLatency: Duration? { nil }
    public func original(_ url: URL) async throws -> OriginalImage { throw OriginalUnavailable() }
    public func animation(_ url: URL, size: CellSize) async -> (any AnimationFrameSource)? { nil }
}
