import Cells
import FoundationEssentials
import Pipeline
import Table
import TextArt

/// The table's thumbnail loader, backed by the image pipeline: rows ask at visible priority, prefetches and the
/// batch at lower ones, and every answer comes from the same caches.
public struct PipelineThumbnailLoader: ThumbnailLoading {
    public let pipeline: ImagePipeline
    public let options: TextArtOptions

    public init(pipeline: ImagePipeline, options: TextArtOptions) {
        self.pipeline = pipeline
        self.options = options
    }

    func request(_ url: URL, _ size: CellSize) -> ThumbnailRequest {
        ThumbnailRequest(url: url, size: size, options: options)
    }

    public func thumbnail(_ url: URL, size: CellSize) -> ThumbnailLoad {
        pipeline.thumbnail(request(url, size), priority: .visible)
    }

    public func prefetch(_ urls: [URL], size: CellSize) {
        pipeline.requestPrefetch(urls.map { request($0, size) })
    }

    public func removeFromCache(_ url: URL) {
        pipeline.removeFromCaches(url)
    }

    public func forgetFailure(_ url: URL) {
        pipeline.forgetFailure(url)
    }

    public func warm(_ url: URL, size: CellSize) async throws {
        _ = try await pipeline.thumbnail(request(url, size), priority: .batch).value()
    }

    public func original(_ url: URL) async throws -> OriginalImage {
        let (bytes, fileExtension) = try await pipeline.original(url)
        return OriginalImage(bytes: bytes, fileExtension: fileExtension)
    }

    public func animation(_ url: URL, size: CellSize) async -> (any AnimationFrameSource)? {
        guard let source = try? await pipeline.animation(request(url, size)) else { return nil }
        return PipelineAnimationFrames(source)
    }

    public var typicalLatency: Duration? {
        pipeline.typicalDownloadTime
    }

    public func download(of url: URL) -> DownloadStanding? {
        switch pipeline.downloadProgress(of: url) {
        case .waiting: .waiting
        case .receiving(let bytes): .receiving(bytes: bytes)
        case nil: nil
        }
    }
}
