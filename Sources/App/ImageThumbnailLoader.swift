import Cells
import Codecs
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Pixels
import Table
import TextArt

/// Loads an image (file or http/https), decodes it and renders it as text art: a row's thumbnail or the detail
/// pane's picture. The same renderer as `thumbtable render`, so a thumbnail equals `render` at the same size.
///
/// Work runs off the main actor; cancellation is checked between loading, decoding and rendering.
public struct ImageThumbnailLoader: ThumbnailLoading {
    public var options: TextArtOptions
    /// Added delay before each load (the demo's simulated network), as a range to pick from at random.
    public var simulatedLatency: ClosedRange<Duration>?

    public init(options: TextArtOptions, simulatedLatency: ClosedRange<Duration>? = nil) {
        self.options = options
        self.simulatedLatency = simulatedLatency
    }

    @concurrent
    public func thumbnail(for url: URL, columns: Int, rows: Int) async throws -> CellBuffer {
        if let latency = simulatedLatency {
            let low = latency.lowerBound.milliseconds, high = latency.upperBound.milliseconds
            try await Task.sleep(for: .milliseconds(Int.random(in: low...max(low, high))))
        }
        let bytes = try await ImageBytes.load(url)
        try Task.checkCancellation()
        return try ThumbnailRendering.render(bytes, columns: columns, rows: rows, options: options)
    }
}

/// Decode and render in one step, shared by the table's thumbnails and the `render` command.
public enum ThumbnailRendering {
    /// The picture fitted inside `columns` x `rows` cells, keeping its aspect ratio.
    public static func render(_ bytes: [UInt8], columns: Int, rows: Int,
                              options: TextArtOptions) throws -> CellBuffer {
        let target = TextArtRenderer.sourcePixelSize(columns: columns, rows: rows, mode: options.mode)
        let decoded = try ImageDecoder.decode(bytes, options: DecodeOptions(
            targetSize: PixelSize(width: target.width, height: target.height), keepsAnimationFrames: false))
        try Task.checkCancellation()
        let fit = TextArtRenderer.fit(imageWidth: decoded.originalWidth, imageHeight: decoded.originalHeight,
                                      maxColumns: columns, maxRows: rows, cellAspect: options.cellAspect)
        return TextArtRenderer.render(decoded.bitmap, columns: fit.columns, rows: fit.rows, options: options)
    }
}

/// Reads the bytes of an image URL: a local file, or http(s).
public enum ImageBytes {
    /// Why an image could not be read.
    public struct LoadError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public static let maxBytes = 20 << 20

    public static func load(_ url: URL) async throws -> [UInt8] {
        if url.isFileURL {
            // URLSession on Linux rejects file:// URLs; read the file directly.
            guard let handle = FileHandle(forReadingAtPath: url.path) else {
                throw LoadError(description: "cannot open \(url.path)")
            }
            defer { try? handle.close() }
            let data = try handle.read(upToCount: maxBytes + 1) ?? Data()
            guard data.count <= maxBytes else {
                throw LoadError(description: "\(url.path) is larger than \(maxBytes >> 20) MB")
            }
            return [UInt8](data)
        }
        guard url.scheme == "http" || url.scheme == "https" else {
            throw LoadError(description: "unsupported URL scheme in \(url.absoluteString)")
        }
        var request = URLRequest(url: url, timeoutInterval: 15)
        request.setValue("ThumbTable", forHTTPHeaderField: "User-Agent")
        let (data, response) = try await URLSession.shared.data(for: request)
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw LoadError(description: "HTTP \(http.statusCode) from \(url.absoluteString)")
        }
        guard data.count <= maxBytes else {
            throw LoadError(description: "\(url.absoluteString) is larger than \(maxBytes >> 20) MB")
        }
        return [UInt8](data)
    }
}

extension Duration {
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
