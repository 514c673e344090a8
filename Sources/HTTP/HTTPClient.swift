import CCurl
import Foundation
import Synchronization

/// HTTP and HTTPS GETs through libcurl, which is loaded on the first request (see `CCurl`).
///
/// One thread per client drives one curl multi handle: it starts transfers, moves their bytes and ends them, and
/// it is the only code that touches a transfer once it is handed over, so each request's continuation is resumed
/// exactly once, there. Connections are kept and reused between requests to the same host.
///
/// Cancelling the calling task removes its transfer from the multi handle, which closes an HTTP/1 connection that
/// is mid-response (an HTTP/2 stream is reset instead); the request then throws `CancellationError`.
public final class HTTPClient: Sendable {
    /// The process's client: one connection pool, one thread, started on first use.
    public static let shared = HTTPClient()

    private let engine = Mutex<Engine?>(nil)

    public init() {}

    deinit {
        engine.withLock { $0?.submit(.shutDown) }
    }

    /// Gets `request.url`. Any status is a reply; only a failure to get one throws.
    ///
    /// - Parameter received: called on the client's thread with the size of each chunk of the body as it arrives.
    /// - Throws: `HTTPFailure`, or `CancellationError` when the calling task is cancelled.
    public func get(_ request: HTTPGet, received: @escaping @Sendable (Int) -> Void = { _ in }) async throws
        -> HTTPReply
    {
        try Task.checkCancellation()
        let engine = try startedEngine()
        let id = engine.nextID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                engine.start(Transfer(id: id, request: request, received: received, continuation: continuation))
            }
        } onCancel: {
            engine.submit(.cancel(id))
        }
    }

    /// The version of the libcurl in use, e.g. "libcurl/7.88.1 OpenSSL/3.0.17 …"; loads it if need be.
    public static func libraryVersion() throws -> String {
        if let message = ccurl_load() { throw HTTPFailure.unavailable(String(cString: message)) }
        return String(cString: ccurl_version())
    }

    private func startedEngine() throws -> Engine {
        try engine.withLock { engine in
            if let engine { return engine }
            if let message = ccurl_load() { throw HTTPFailure.unavailable(String(cString: message)) }
            let started = try Engine()
            engine = started
            return started
        }
    }
}

/// One GET and its limits.
public struct HTTPGet: Sendable {
    public var url: URL
    /// Request headers besides the ones curl sends itself (Host, Accept-Encoding).
    public var headers: [(name: String, value: String)]
    /// The most body bytes accepted: a larger `Content-Length` is refused before the body, and a body without one
    /// is cut off at the chunk that passes the limit.
    public var maxBytes: Int
    /// How long the whole request may take, from start to last byte.
    public var timeout: Duration
    /// The most redirects followed (to http and https only).
    public var maxRedirects: Int
    /// Ends the request when a response with a status outside 200...299 arrives, before its body: for callers that
    /// do nothing with an error page.
    public var skipsErrorBodies: Bool

    public init(url: URL, headers: [(name: String, value: String)] = [], maxBytes: Int = 20 << 20,
                timeout: Duration = .seconds(15), maxRedirects: Int = 5, skipsErrorBodies: Bool = false) {
        self.url = url
        self.headers = headers
        self.maxBytes = maxBytes
        self.timeout = timeout
        self.maxRedirects = maxRedirects
        self.skipsErrorBodies = skipsErrorBodies
    }
}

/// What the server answered, after any redirects.
public struct HTTPReply: Sendable, Equatable {
    public var status: Int
    /// The last response's headers, by lower-cased name (a repeated header keeps its last value).
    public var headers: [String: String]
    /// The body; empty for an error status when the request skips error bodies.
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A header's value, by name in any case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    public var isSuccess: Bool { (200...299).contains(status) }
}

/// Why no reply could be had.
public enum HTTPFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// libcurl is missing or unusable; the reason says which.
    case unavailable(String)
    /// The connection failed or broke (refused, reset, DNS, TLS, a garbled response), in a few words.
    case connection(String)
    /// No complete answer within the request's time limit.
    case timedOut
    /// The body is larger than the request's byte limit.
    case tooLarge
    /// More redirects than the request's limit.
    case tooManyRedirects

    public var description: String {
        switch self {
        case .unavailable(let reason), .connection(let reason): reason
        case .timedOut: "no answer in time"
        case .tooLarge: "the response is larger than the limit"
        case .tooManyRedirects: "too many redirects"
        }
    }
}

/// The reason phrase of an HTTP status, for messages: "Not Found". Empty for a status without one.
public func httpReasonPhrase(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 206: "Partial Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 304: "Not Modified"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 410: "Gone"
    case 413: "Content Too Large"
    case 415: "Unsupported Media Type"
    case 418: "I'm a Teapot"
    case 429: "Too Many Requests"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    default: ""
    }
}
