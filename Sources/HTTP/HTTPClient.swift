import CCurl
import FoundationEssentials
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
    /// How long the request may go without receiving a byte (connecting, waiting for the answer, or between chunks
    /// of the body) before it is given up as stalled; nil for no limit but `timeout`.
    public var stallTimeout: Duration?
    /// The most redirects followed (to http and https only).
    public var maxRedirects: Int
    /// Ends the request when a response with a status outside 200...299 arrives, before its body: for callers that
    /// do nothing with an error page.
    public var skipsErrorBodies: Bool

    public init(url: URL, headers: [(name: String, value: String)] = [], maxBytes: Int = 20 << 20,
                timeout: Duration = .seconds(15), stallTimeout: Duration? = nil, maxRedirects: Int = 5,
                skipsErrorBodies: Bool = false) {
        self.url = url
        self.headers = headers
        self.maxBytes = maxBytes
        self.timeout = timeout
        self.stallTimeout = stallTimeout
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

/// How far a transfer had got when it stopped: what a message about a timeout or a break says.
public enum TransferStage: Sendable, Equatable {
    /// No connection to the server yet.
    case connecting
    /// Connected and the request sent; no response yet.
    case waitingForResponse
    /// The response's status and headers arrived, and `received` bytes of its body (of `expected`, when the server
    /// sent a `Content-Length`).
    case body(received: Int, expected: Int?)

    /// "after 5000 of 100000 bytes", "after its headers, before any of the body": for messages.
    public var progress: String {
        switch self {
        case .connecting: "before a connection was made"
        case .waitingForResponse: "before the server answered"
        case .body(0, _): "after the response's headers, before any of its body"
        case .body(let received, let expected?): "after \(received) of \(expected) bytes"
        case .body(let received, nil): "after \(received) bytes"
        }
    }
}

/// Why a redirect was not followed.
public enum RedirectRefusal: Sendable, Equatable {
    /// It leads to a scheme other than http and https (`file:`, `ftp:`, …), which data from the network may not
    /// open.
    case notHTTP
    /// Its `Location` is not a valid URL.
    case malformed
}

/// Why no reply could be had.
public enum HTTPFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// libcurl is missing or unusable; the reason says which.
    case unavailable(String)
    /// No connection could be made (refused, host not found, the secure connection failed), in a few words.
    case connection(String)
    /// The connection broke at `stage`; `detail` is curl's own words.
    case broken(stage: TransferStage, detail: String)
    /// The server answered something that is not a readable HTTP response.
    case badResponse(String)
    /// The whole request took longer than its `timeout`; it had got as far as `stage`.
    case timedOut(limit: Duration, stage: TransferStage)
    /// Nothing arrived for the request's `stallTimeout`; it had got as far as `stage`.
    case stalled(limit: Duration, stage: TransferStage)
    /// The body is larger than the request's byte limit.
    case tooLarge
    /// More redirects than the request's limit.
    case tooManyRedirects
    /// A redirect to `location` (as the server sent it) was not followed.
    case redirectRefused(location: String, reason: RedirectRefusal)
    /// The request's own URL is not http or https; the scheme it has.
    case unsupportedScheme(String)

    public var description: String {
        switch self {
        case .unavailable(let reason), .connection(let reason), .badResponse(let reason): reason
        case .broken(.waitingForResponse, let detail):
            "the server closed the connection without answering" + (detail.isEmpty ? "" : " (\(detail))")
        case .broken(let stage, let detail):
            "the connection broke before the whole response arrived, \(stage.progress)"
                + (detail.isEmpty ? "" : " (\(detail))")
        case .timedOut(let limit, .connecting): "no connection within \(limit.secondsText)"
        case .timedOut(let limit, .waitingForResponse): "no answer within \(limit.secondsText)"
        case .timedOut(let limit, let stage):
            "the response was still arriving after \(limit.secondsText): stopped \(stage.progress)"
        case .stalled(let limit, .connecting): "no connection within \(limit.secondsText)"
        case .stalled(let limit, .waitingForResponse): "no answer for \(limit.secondsText)"
        case .stalled(let limit, let stage):
            "the response stalled \(stage.progress): nothing more for \(limit.secondsText)"
        case .tooLarge: "the response is larger than the limit"
        case .tooManyRedirects: "too many redirects"
        case .redirectRefused(let location, .notHTTP):
            "redirected to \(location), which is not http or https; the redirect was not followed"
        case .redirectRefused(let location, .malformed):
            "redirected to \(location), which is not a valid URL"
        case .unsupportedScheme(let scheme): "\(scheme): URLs cannot be fetched, only http and https"
        }
    }
}

extension Duration {
    /// "15 s", "0.3 s": a duration in a message.
    public var secondsText: String {
        let (seconds, attoseconds) = components
        let milliseconds = attoseconds / 1_000_000_000_000_000
        return milliseconds == 0 ? "\(seconds) s" : "\(Double(seconds) + Double(milliseconds) / 1000) s"
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
