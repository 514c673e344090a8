import FoundationEssentials
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

    /// Loads the bytes at `url` only if they changed since `stored` was received: a conditional GET with
    /// `stored`'s validators (`If-None-Match`, `If-Modified-Since`).
    ///
    /// - Returns: `.notModified` with `stored`'s bytes and what the server now says about them (a 304), or the new
    ///   bytes.
    /// - Throws: as `load` does.
    func revalidate(_ url: URL, stored: LoadedData, limits: LoadLimits,
                    received: @escaping @Sendable (Int) -> Void) async throws -> Revalidation
}

extension DataLoading {
    /// A loader that cannot ask conditionally loads the whole image again.
    public func revalidate(_ url: URL, stored: LoadedData, limits: LoadLimits,
                           received: @escaping @Sendable (Int) -> Void) async throws -> Revalidation {
        .modified(try await load(url, limits: limits, received: received))
    }
}

/// What a conditional GET found.
public enum Revalidation: Sendable, Equatable {
    /// The server answered 304: the stored bytes stand, with the freshness and validators it sent now.
    case notModified(LoadedData)
    /// The image changed, or the server ignored the condition: its new bytes.
    case modified(LoadedData)
}

/// What one load may cost before it is stopped.
public struct LoadLimits: Sendable, Hashable {
    /// The most bytes a response may have; the download stops there.
    public var maxBytes: Int
    /// How long a request may take, from start to last byte.
    public var timeout: Duration
    /// How long a request may go without receiving a byte (connecting, waiting for the answer, or mid-body) before
    /// it is given up as stalled, so that a server that never answers holds a connection only this long.
    public var stallTimeout: Duration
    /// The most redirects followed.
    public var maxRedirects: Int

    public init(maxBytes: Int = 20 << 20, timeout: Duration = .seconds(15), stallTimeout: Duration = .seconds(5),
                maxRedirects: Int = 5) {
        self.maxBytes = maxBytes
        self.timeout = timeout
        self.stallTimeout = stallTimeout
        self.maxRedirects = maxRedirects
    }

    public static let `default` = LoadLimits()
}

/// The bytes of an image and what the server said about them.
public struct LoadedData: Sendable, Equatable {
    public var bytes: [UInt8]
    /// The `Content-Type`, if the server sent one.
    public var contentType: String?
    /// Validators, kept with a disk cache entry and sent back when it is revalidated; checked when received (a
    /// quoted or plain visible-ASCII ETag, an HTTP date).
    public var etag: String?
    public var lastModified: String?
    /// How long the bytes may be used from disk without asking the server, and whether they may be kept there;
    /// nil when no server said (a local file), and then the default lifetime applies.
    public var freshness: CacheFreshness?

    public init(bytes: [UInt8], contentType: String? = nil, etag: String? = nil, lastModified: String? = nil,
                freshness: CacheFreshness? = nil) {
        self.bytes = bytes
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.freshness = freshness
    }

    /// Whether a conditional request can be made for these bytes.
    public var hasValidators: Bool { etag != nil || lastModified != nil }
}

/// Why an image could not be loaded, in words a user can act on; says whether trying again may help.
public enum LoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with a status outside 200...299. `retryAfter` is its `Retry-After`, if any.
    case httpStatus(Int, url: URL, retryAfter: Duration?)
    /// No connection could be made (refused, DNS, TLS).
    case connection(String, url: URL)
    /// The connection broke at `stage`; `detail` is curl's words.
    case connectionBroke(stage: TransferStage, detail: String, url: URL)
    /// The server answered something that is not a readable HTTP response.
    case badResponse(String, url: URL)
    /// No complete answer within the time limit; the download had got as far as `stage`.
    case timedOut(after: Duration, stage: TransferStage, url: URL)
    /// Nothing arrived for the stall timeout; the download had got as far as `stage`.
    case stalled(after: Duration, stage: TransferStage, url: URL)
    /// The response is larger than the byte limit; the download was stopped there.
    case tooLarge(limit: Int, url: URL)
    /// More redirects than the limit.
    case tooManyRedirects(limit: Int, url: URL)
    /// A redirect to `location` (as the server sent it) was not followed: it is not http(s), or not a URL.
    case redirectRefused(location: String, reason: RedirectRefusal, url: URL)
    /// Not http, https or file.
    case unsupportedScheme(url: URL)
    /// A local file that cannot be read.
    case unreadableFile(path: String, reason: String)
    /// A `file:` URL from a source whose URLs come from a server: never opened.
    case localFileRefused(url: URL)

    /// Whether an automatic retry may succeed: connection errors, broken connections, timeouts, stalls, 408, 429
    /// and 5xx.
    public var isRetryable: Bool {
        switch self {
        case .httpStatus(let status, _, _): status == 408 || status == 429 || (500...599).contains(status)
        case .connection, .connectionBroke, .timedOut, .stalled: true
        case .badResponse, .tooLarge, .tooManyRedirects, .redirectRefused, .unsupportedScheme, .unreadableFile,
             .localFileRefused: false
        }
    }

    /// Whether the same request would fail the same way for the rest of the run, so the failure is remembered
    /// rather than asked again: a 4xx status but 408 (timeout), 425 (too early) and 429 (too many requests), which
    /// say "later"; and limits and refused redirects, which the same URL meets again. A 401 or 403 counts too: the
    /// run's credentials do not change. Not a connection error, a timeout or a 5xx (retried as `isRetryable` says),
    /// a response that is not HTTP (a server mid-restart), nor a local file (which the user may fix meanwhile).
    public var isPermanent: Bool {
        switch self {
        case .httpStatus(let status, _, _): (400...499).contains(status) && ![408, 425, 429].contains(status)
        case .tooLarge, .tooManyRedirects, .redirectRefused, .unsupportedScheme, .localFileRefused: true
        case .connection, .connectionBroke, .badResponse, .timedOut, .stalled, .unreadableFile: false
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
            "cannot connect to \(Self.server(url)): \(reason)"
        case .connectionBroke(let stage, let detail, let url):
            "\(Self.server(url)): " + HTTPFailure.broken(stage: stage, detail: detail).description
        case .badResponse(let reason, let url):
            "\(Self.server(url)): \(reason)"
        case .timedOut(let after, .connecting, let url):
            "cannot connect to \(Self.server(url)) within \(after.secondsText)"
        case .timedOut(let after, .waitingForResponse, let url):
            "no answer from \(Self.server(url)) within \(after.secondsText)"
        case .timedOut(let after, let stage, let url):
            "\(url.absoluteString) was still arriving after \(after.secondsText); the download was stopped "
                + stage.progress
        case .stalled(let after, .connecting, let url):
            "cannot connect to \(Self.server(url)): no connection for \(after.secondsText)"
        case .stalled(let after, .waitingForResponse, let url):
            "no answer from \(Self.server(url)) for \(after.secondsText); the request was given up"
        case .stalled(let after, let stage, let url):
            "the download of \(url.absoluteString) stalled \(stage.progress): nothing more for \(after.secondsText)"
        case .tooLarge(let limit, let url):
            "\(url.absoluteString) is larger than the \(LoadError.megabytes(limit)) limit; the download was stopped"
        case .tooManyRedirects(let limit, let url):
            "more than \(limit) redirects from \(url.absoluteString); the last was not followed"
        case .redirectRefused(let location, .notHTTP, let url):
            "\(url.absoluteString) redirected to \(location), which is not http or https; it was not followed"
        case .redirectRefused(let location, .malformed, let url):
            "\(url.absoluteString) redirected to \(location), which is not a valid URL"
        case .unsupportedScheme(let url):
            "cannot load \(url.absoluteString): only http, https and file URLs are supported"
        case .unreadableFile(let path, let reason):
            "cannot read \(path): \(reason)"
        case .localFileRefused(let url):
            "refused to open \(url.absoluteString): this source's images come from a server, which may only "
                + "point at http and https"
        }
    }

    /// The host a message names: "example.com", "127.0.0.1:8080".
    static func server(_ url: URL) -> String {
        guard let host = url.host else { return url.absoluteString }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    static func megabytes(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MB" : "\(bytes) byte"
    }
}
