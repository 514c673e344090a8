import Cells
import Codecs
import Foundation
import LocalFiles
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

/// Bytes to cells: the decode and render steps, swappable so simulation tests can run thousands of scrolls fast.
public struct ImageProcessing: Sendable {
    /// The key under which a request's decoded bitmap is cached: requests with equal keys share one decode.
    public var decodeTarget: @Sendable (ThumbnailRequest) -> PixelSize
    public var decode: @Sendable (_ bytes: [UInt8], _ request: ThumbnailRequest) throws -> DecodedImage
    public var render: @Sendable (_ image: DecodedImage, _ request: ThumbnailRequest) -> CellBuffer
    /// The bytes `decode` will allocate for these bytes (0 when unknown), reserved from `decodeBudget` first.
    public var decodeMemory: @Sendable (_ bytes: [UInt8], _ request: ThumbnailRequest) -> Int
    /// The memory concurrent decodes share.
    public var decodeBudget: DecodeMemoryBudget

    public init(decodeTarget: @escaping @Sendable (ThumbnailRequest) -> PixelSize,
                decode: @escaping @Sendable ([UInt8], ThumbnailRequest) throws -> DecodedImage,
                render: @escaping @Sendable (DecodedImage, ThumbnailRequest) -> CellBuffer,
                decodeMemory: @escaping @Sendable ([UInt8], ThumbnailRequest) -> Int = { _, _ in 0 },
                decodeBudget: DecodeMemoryBudget = .shared) {
        self.decodeTarget = decodeTarget
        self.decode = decode
        self.render = render
        self.decodeMemory = decodeMemory
        self.decodeBudget = decodeBudget
    }

    /// The real codecs and renderer: the same rule as `thumbtable render` (`FittedDecoding`), so a row's thumbnail
    /// equals `render` at the same size and options.
    public static let live = ImageProcessing(
        decodeTarget: { request in
            let size = TextArtRenderer.sourcePixelSize(columns: request.size.columns, rows: request.size.rows,
                                                       mode: request.options.mode)
            return PixelSize(width: size.width, height: size.height)
        },
        decode: { bytes, request in
            try FittedDecoding.decode(bytes, columns: request.size.columns, rows: request.size.rows, options: request.options)
        },
        render: { image, request in
            let fit = FittedDecoding.grid(for: image, columns: request.size.columns, rows: request.size.rows,
                                          options: request.options)
            return TextArtRenderer.render(image.bitmap, columns: fit.columns, rows: fit.rows,
                                          options: request.options)
        },
        decodeMemory: { bytes, request in
            FittedDecoding.memoryCost(bytes, columns: request.size.columns, rows: request.size.rows, options: request.options)
        })
}

/// The one rule for drawing a picture inside a box of cells, shared by the table and `thumbtable render`.
///
/// The header gives the picture's size; the grid is fitted to it (keeping its aspect ratio); and the decoder covers
/// only that grid's pixels, not the whole box. A wide photo in a 40x20 box fills 40x11 cells, so a JPEG can decode
/// at 1/8 scale instead of 1/4: half the decoder's work and a quarter of the pixels to render.
public enum FittedDecoding {
    /// Decodes `bytes` at the smallest scale that covers the fitted grid (the box, if the header cannot be read).
    public static func decode(_ bytes: [UInt8], columns: Int, rows: Int,
                              options: TextArtOptions) throws(DecodeError) -> DecodedImage {
        try ImageDecoder.decode(bytes, options: decodeOptions(bytes, columns: columns, rows: rows, options: options))
    }

    /// The bytes `decode` will allocate (`ImageDecoder.memoryCost`), or 0 when the header cannot be read (then
    /// `decode` fails at once).
    public static func memoryCost(_ bytes: [UInt8], columns: Int, rows: Int, options: TextArtOptions) -> Int {
        let decodeOptions = decodeOptions(bytes, columns: columns, rows: rows, options: options)
        return (try? ImageDecoder.memoryCost(of: bytes, options: decodeOptions)) ?? 0
    }

    private static func decodeOptions(_ bytes: [UInt8], columns: Int, rows: Int,
                                      options: TextArtOptions) -> DecodeOptions {
        var grid = (columns: columns, rows: rows)
        if let header = try? ImageDecoder.header(of: bytes) {
            grid = TextArtRenderer.fit(imageWidth: header.width, imageHeight: header.height, maxColumns: columns,
                                       maxRows: rows, cellAspect: options.cellAspect)
        }
        let target = TextArtRenderer.sourcePixelSize(columns: grid.columns, rows: grid.rows, mode: options.mode)
        return DecodeOptions(targetSize: PixelSize(width: target.width, height: target.height),
                             keepsAnimationFrames: false)
    }

    /// The grid a decoded picture is drawn at inside a box: fitted to its full-size aspect ratio.
    public static func grid(for image: DecodedImage, columns: Int, rows: Int,
                            options: TextArtOptions) -> (columns: Int, rows: Int) {
        TextArtRenderer.fit(imageWidth: image.originalWidth, imageHeight: image.originalHeight, maxColumns: columns,
                            maxRows: rows, cellAspect: options.cellAspect)
    }
}

/// Why a thumbnail could not be made.
public enum PipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    case load(LoadError)
    /// The bytes are not a picture that decodes (damaged, cut short, another format).
    case decode(url: URL, reason: String)
    /// The picture is sound but over a limit (pixels, memory, bytes): fetching it again would not help.
    case overLimit(url: URL, reason: String)

    public var description: String {
        switch self {
        case .load(let error): error.description
        case .decode(let url, let reason), .overLimit(let url, let reason): "\(Self.shown(url)): \(reason)"
        }
    }

    /// A URL as a message names it: a local file by its path (bytes that are not UTF-8 as `\xNN`).
    static func shown(_ url: URL) -> String {
        LocalPath(fileURL: url)?.description ?? url.absoluteString
    }
}
