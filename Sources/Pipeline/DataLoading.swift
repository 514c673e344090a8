import Foundation
import HTTP

/// Fetches the bytes behind an image URL: http, https or a local file.
///
/// The pipeline owns caching, coalescing, retries and priorities; a loader only loads, within its limits, and stops
/// (closing the connection) as soon as the calling task is cancelled.
public protocol DataLoading: Sendable {
    /// Loads the bytes at `url`.
    ///
    /// - Parameter received: called with the size of each chunk as it arrives, so the caller can count the bytes a
    ///   request cost even when it is cancelled or fails before the end.
    /// - Throws: a `LoadError` a user can read, or `CancellationError` when the calling task was cancelled.
    func load(_ url: URL, limits: LoadLimits, received: @escaping @Sendable (Int) -> Void) async throws -> LoadedData
}

/// What one load may cost before it is stopped.
public struct LoadLimits: Sendable, Hashable {
    /// The most bytes a response may have; the download stops there.
    public var maxBytes: Int
    /// How long a request may take, from start to last byte.
    public var timeout: Duration
    /// The most redirects followed.
    public var maxRedirects: Int

    public init(maxBytes: Int = 20 << 20, timeout: Duration = .seconds(15), maxRedirects: Int = 5) {
        self.maxBytes = maxBytes
        self.timeout = timeout
        self.maxRedirects = maxRedirects
    }

    public static let `default` = LoadLimits()
}

/// The bytes of an image and what the server said about them.
public struct LoadedData: Sendable, Equatable {
    public var bytes: [UInt8]
    /// The `Content-Type`, if the server sent one.
    public var contentType: String?
    /// Validators, kept with a disk cache entry.
    public var etag: String?
    public var lastModified: String?

    public init(bytes: [UInt8], contentType: String? = nil, etag: String? = nil, lastModified: String? = nil) {
        self.bytes = bytes
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// Why an image could not be loaded, in words a user can act on; says whether trying again may help.
public enum LoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with a status outside 200...299. `retryAfter` is its `Retry-After`, if any.
    case httpStatus(Int, url: URL, retryAfter: Duration?)
    /// The connection failed or broke (refused, reset, DNS, TLS).
    case connection(String, url: URL)
    /// No complete answer within the time limit.
    case timedOut(after: Duration, url: URL)
    /// The response is larger than the byte limit; the download was stopped there.
    case tooLarge(limit: Int, url: URL)
    /// More redirects than the limit.
    case tooManyRedirects(limit: Int, url: URL)
    /// Not http, https or file.
    case unsupportedScheme(url: URL)
    /// A local file that cannot be read.
    case unreadableFile(path: String, reason: String)
    /// A `file:` URL from a source whose URLs come from a server: never opened.
    case localFileRefused(url: URL)

    /// Whether an automatic retry may succeed: connection errors, timeouts, 408, 429 and 5xx.
    public var isRetryable: Bool {
        switch self {
        case .httpStatus(let status, _, _): status == 408 || status == 429 || (500...599).contains(status)
        case .connection, .timedOut: true
        case .tooLarge, .tooManyRedirects, .unsupportedScheme, .unreadableFile, .localFileRefused: false
        }
    }

    /// How long the server asked us to wait before trying again.
    public var retryAfter: Duration? {
        if case .httpStatus(_, _, let retryAfter) = self { return retryAfter }
        return nil
    }

    public var description: String {
        switch self {
        case .httpStatus(let status, let url, _):
            "HTTP \(([String(status), httpReasonPhrase(status)]).filter { !$0.isEmpty }.joined(separator: " ")) "
                + "from \(url.absoluteString)"
        case .connection(let reason, let url):
            "cannot connect to \(url.host ?? url.absoluteString): \(reason)"
        case .timedOut(let after, let url):
            "no answer from \(url.host ?? url.absoluteString) within \(LoadError.seconds(after))"
        case .tooLarge(let limit, let url):
            "\(url.absoluteString) is larger than the \(LoadError.megabytes(limit)) limit; the download was stopped"
        case .tooManyRedirects(let limit, let url):
            "more than \(limit) redirects from \(url.absoluteString)"
        case .unsupportedScheme(let url):
            "cannot load \(url.absoluteString): only http, https and file URLs are supported"
        case .unreadableFile(let path, let reason):
            "cannot read \(path): \(reason)"
        case .localFileRefused(let url):
            "refused to open \(url.absoluteString): this source's images come from a server, which may only "
                + "point at http and https"
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = attoseconds / 1_000_000_000_000_000
        return milliseconds == 0 ? "\(seconds) s" : "\(Double(seconds) + Double(milliseconds) / 1000) s"
    }

    static func megabytes(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MB" : "\(bytes) byte"
    }
}
