import Cells
import Foundation
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

    func request(_ url: URL, _ columns: Int, _ rows: Int) -> ThumbnailRequest {
        ThumbnailRequest(url: url, columns: columns, rows: rows, options: options)
    }

    public func thumbnail(for url: URL, columns: Int, rows: Int) async throws -> CellBuffer {
        try await pipeline.thumbnail(request(url, columns, rows), priority: .visible)
    }

    public func cachedThumbnail(for url: URL, columns: Int, rows: Int) -> CellBuffer? {
        pipeline.cachedThumbnail(request(url, columns, rows))
    }

    public func prefetch(_ urls: [URL], columns: Int, rows: Int) {
        pipeline.requestPrefetch(urls.map { request($0, columns, rows) })
    }

    public func removeFromCache(_ url: URL) {
        pipeline.removeFromCaches(url)
    }

    public func warm(_ url: URL, columns: Int, rows: Int) async throws {
        _ = try await pipeline.thumbnail(request(url, columns, rows), priority: .batch)
    }
}
