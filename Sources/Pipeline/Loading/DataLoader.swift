import Basics
import FoundationEssentials
import Glibc
import HTTP
import LocalFiles

/// The live `DataLoading`: http and https through an `HTTPClient` (libcurl), local files (when allowed) through
/// `LocalFile`.
///
/// The client counts bytes as they arrive, stops a load at the byte limit, the redirect limit or the time limit,
/// and ends it (closing the connection) when the calling Swift task is cancelled. No URL cache: the pipeline keeps
/// its own caches.
public final class DataLoader: DataLoading {
    /// Whether `file:` URLs may be read.
    public enum LocalFiles: Sendable {
        /// Only http and https: for every source whose URLs come from a server (a page, a header, a redirect), so
        /// that no server can make ThumbTable read the user's files.
        case refused
        /// `file:` URLs too: only for sources on this machine (a folder, a file named on the command line).
        case allowed
    }

    private let client: HTTPClient
    private let userAgent: String
    private let localFiles: LocalFiles

    /// - Parameters:
    ///   - localFiles: whether `file:` URLs may be read; refused unless the source is on this machine.
    ///   - userAgent: sent with every HTTP request.
    ///   - client: the connection pool to load through; the process's own by default.
    public init(localFiles: LocalFiles = .refused, userAgent: String = "ThumbTable", client: HTTPClient = .shared) {
        self.localFiles = localFiles
        self.userAgent = userAgent
        self.client = client
    }

    public func load(_ url: URL, limits: LoadLimits, received: @escaping @Sendable (Int) -> Void) async throws
        -> LoadedData
    {
        try Task.checkCancellation()
        switch url.scheme?.lowercased() {
        case "http", "https":
            switch try await loadHTTP(url, stored: nil, limits: limits, received: received) {
            case .modified(let data), .notModified(let data): return data
            }
        case "file":
            guard localFiles == .allowed else { throw LoadError.localFileRefused(url: url) }
            return try await Self.loadFile(url, limits: limits, received: received)
        default: throw LoadError.unsupportedScheme(url: url)
        }
    }

    public func revalidate(_ url: URL, stored: LoadedData, limits: LoadLimits,
                           received: @escaping @Sendable (Int) -> Void) async throws -> Revalidation {
        guard ["http", "https"].contains(url.scheme?.lowercased()), stored.hasValidators else {
            return .modified(try await load(url, limits: limits, received: received))
        }
        try Task.checkCancellation()
        return try await loadHTTP(url, stored: stored, limits: limits, received: received)
    }

    // MARK: HTTP

    /// A GET, conditional on `stored`'s validators when there is a stored response.
    private func loadHTTP(_ url: URL, stored: LoadedData?, limits: LoadLimits,
                          received: @escaping @Sendable (Int) -> Void) async throws -> Revalidation {
        var headers = [(name: "User-Agent", value: userAgent)]
        if let etag = stored?.etag { headers.append(("If-None-Match", etag)) }
        if let lastModified = stored?.lastModified { headers.append(("If-Modified-Since", lastModified)) }
        let request = HTTPGet(url: url, headers: headers, maxBytes: limits.maxBytes,
                              timeout: limits.timeout, stallTimeout: limits.stallTimeout,
                              maxRedirects: limits.maxRedirects, skipsErrorBodies: true)
        let reply: HTTPReply
        do {
            reply = try await client.get(request, received: received)
        } catch let failure as HTTPFailure {
            throw Self.loadError(failure, url: url, limits: limits)
        }
        let receivedAt = Date()
        if reply.status == 304, let stored {
            // What the 304 does not repeat, the stored response still says (RFC 9111 §4.3.4).
            var refreshed = stored
            refreshed.etag = Self.etag(reply.header("ETag")) ?? stored.etag
            refreshed.lastModified = Self.lastModified(reply.header("Last-Modified")) ?? stored.lastModified
            let lastModified = refreshed.lastModified
            refreshed.freshness = CacheFreshness(
                header: { reply.header($0) ?? ($0 == "last-modified" ? lastModified : nil) },
                receivedAt: receivedAt, previous: stored.freshness)
            return .notModified(refreshed)
        }
        guard reply.isSuccess else {
            throw LoadError.httpStatus(reply.status, url: url, retryAfter: Self.retryAfter(reply.header("Retry-After")))
        }
        return .modified(LoadedData(
            bytes: reply.body, contentType: reply.header("Content-Type"), etag: Self.etag(reply.header("ETag")),
            lastModified: Self.lastModified(reply.header("Last-Modified")),
            freshness: CacheFreshness(header: reply.header, receivedAt: receivedAt)))
    }

    static func loadError(_ failure: HTTPFailure, url: URL, limits: LoadLimits) -> LoadError {
        switch failure {
        case .unavailable(let reason), .connection(let reason): .connection(reason, url: url)
        case .broken(let stage, let detail): .connectionBroke(stage: stage, detail: detail, url: url)
        case .badResponse(let reason): .badResponse(reason, url: url)
        case .timedOut(let limit, let stage): .timedOut(after: limit, stage: stage, url: url)
        case .stalled(let limit, let stage): .stalled(after: limit, stage: stage, url: url)
        case .tooLarge: .tooLarge(limit: limits.maxBytes, url: url)
        case .tooManyRedirects: .tooManyRedirects(limit: limits.maxRedirects, url: url)
        case .redirectRefused(let location, let reason): .redirectRefused(location: location, reason: reason, url: url)
        case .unsupportedScheme: .unsupportedScheme(url: url)
        }
    }

    // MARK: Files

    /// Reads a local file the user chose, within the byte limit, on the blocking-I/O threads; only a regular file is
    /// read (see `LocalFile`).
    static func loadFile(_ url: URL, limits: LoadLimits, received: @escaping @Sendable (Int) -> Void) async throws
        -> LoadedData
    {
        guard let path = LocalPath(fileURL: url) else {
            throw LoadError.unreadableFile(path: url.absoluteString, reason: "not a file on this machine")
        }
        let maxBytes = limits.maxBytes
        do {
            let bytes = try await BlockingIO.run { () throws(LocalFile.Failure) -> [UInt8] in
                try LocalFile.read(path, limit: maxBytes, received: received)
            }
            try Task.checkCancellation()
            return LoadedData(bytes: bytes)
        } catch let failure as LocalFile.Failure {
            if case .tooLarge = failure.reason { throw LoadError.tooLarge(limit: maxBytes, url: url) }
            throw LoadError.unreadableFile(path: path.description, reason: failure.shortReason)
        }
    }
}

// MARK: - Errors and headers

extension DataLoader {
    /// The wait a `Retry-After` header asks for: delta-seconds, or an HTTP date (IMF-fixdate, RFC 850 or asctime)
    /// counted from `now`; a date in the past asks for no wait.
    static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingSpaces(), !value.isEmpty else { return nil }
        if value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber) {
            return Int(value).map { .seconds($0) }
        }
        guard let date = HTTPDate.parse(value) else { return nil }
        let milliseconds = max(0, (date.timeIntervalSince(now) * 1000).rounded())
        return .milliseconds(Int64(milliseconds))
    }

    /// An `ETag` fit to keep and send back: `"…"` or `W/"…"` (or a bare token, which some servers send) of visible
    /// ASCII, at most 256 characters; nil for anything else, which then is not a validator.
    static func etag(_ value: String?) -> String? {
        guard let value = value?.trimmingSpaces(), !value.isEmpty, value.utf8.count <= 256,
              value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return nil }
        let opaque = value.hasPrefix("W/") ? value.dropFirst(2) : Substring(value)
        if opaque.count >= 2, opaque.hasPrefix("\""), opaque.hasSuffix("\"") {
            return opaque.dropFirst().dropLast().contains("\"") ? nil : value
        }
        return value.contains(where: { $0 == "\"" || $0 == "," }) ? nil : value
    }

    /// A `Last-Modified` fit to send back in `If-Modified-Since`: only one that reads as an HTTP date.
    static func lastModified(_ value: String?) -> String? {
        guard let value = value?.trimmingSpaces(), HTTPDate.parse(value) != nil else { return nil }
        return value
    }
}
