import Cells
import Codecs
import Foundation
import TextArt

/// One picture to show: an image URL drawn as text art in a box of cells.
///
/// Equal requests are one piece of work: they share a download, a decode and a render, and one cache entry.
public struct ThumbnailRequest: Sendable, Hashable, CustomStringConvertible {
    public var url: URL
    public var columns: Int
    public var rows: Int
    public var options: TextArtOptions

    public init(url: URL, columns: Int, rows: Int, options: TextArtOptions) {
        self.url = url
        self.columns = columns
        self.rows = rows
        self.options = options
    }

    public var description: String { "\(url.absoluteString) at \(columns)x\(rows) \(options.mode.rawValue)" }
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

/// Bytes to cells: the decode and render steps, swappable so simulation tests can run thousands of scrolls fast.
public struct ImageProcessing: Sendable {
    /// The pixel size a decoder should cover for a request (so JPEG and WebP can shrink while decoding).
    public var decodeTarget: @Sendable (ThumbnailRequest) -> PixelSize
    public var decode: @Sendable (_ bytes: [UInt8], _ target: PixelSize) throws -> DecodedImage
    public var render: @Sendable (_ image: DecodedImage, _ request: ThumbnailRequest) -> CellBuffer

    public init(decodeTarget: @escaping @Sendable (ThumbnailRequest) -> PixelSize,
                decode: @escaping @Sendable ([UInt8], PixelSize) throws -> DecodedImage,
                render: @escaping @Sendable (DecodedImage, ThumbnailRequest) -> CellBuffer) {
        self.decodeTarget = decodeTarget
        self.decode = decode
        self.render = render
    }

    /// The real codecs and renderer: the same rule as `thumbtable render` (decode to cover the box, fit the grid to
    /// the full-size aspect ratio, render), so a row's thumbnail equals `render` at the same size and options.
    public static let live = ImageProcessing(
        decodeTarget: { request in
            let size = TextArtRenderer.sourcePixelSize(columns: request.columns, rows: request.rows,
                                                       mode: request.options.mode)
            return PixelSize(width: size.width, height: size.height)
        },
        decode: { bytes, target in
            try ImageDecoder.decode(bytes, options: DecodeOptions(targetSize: target, keepsAnimationFrames: false))
        },
        render: { image, request in
            let fit = TextArtRenderer.fit(imageWidth: image.originalWidth, imageHeight: image.originalHeight,
                                          maxColumns: request.columns, maxRows: request.rows,
                                          cellAspect: request.options.cellAspect)
            return TextArtRenderer.render(image.bitmap, columns: fit.columns, rows: fit.rows,
                                          options: request.options)
        })
}

/// Why a thumbnail could not be made.
public enum PipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    case load(LoadError)
    case decode(url: URL, reason: String)

    public var description: String {
        switch self {
        case .load(let error): error.description
        case .decode(let url, let reason): "\(url.isFileURL ? url.path : url.absoluteString): \(reason)"
        }
    }
}
