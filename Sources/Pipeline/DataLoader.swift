import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The live `DataLoading`: http and https through one URLSession, local files through FileHandle.
///
/// Each HTTP load is a URLSession data task watched by one delegate, which counts bytes as they arrive, stops the
/// task at the byte limit, the redirect limit or the time limit, and cancels it (closing the connection) when the
/// calling Swift task is cancelled. No URL cache: the pipeline keeps its own caches.
public final class DataLoader: DataLoading {
    private let session: URLSession
    private let transfers: Transfers

    /// - Parameters:
    ///   - userAgent: sent with every HTTP request.
    ///   - maxConnectionsPerHost: URLSession's own limit; the pipeline enforces the limits that matter, so this is
    ///     only a ceiling above them (a request queued inside URLSession would spend its time limit waiting).
    public init(userAgent: String = "ThumbTable", maxConnectionsPerHost: Int = 32) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = maxConnectionsPerHost
        configuration.httpAdditionalHeaders = ["User-Agent": userAgent]
        transfers = Transfers()
        session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
    }

    deinit {
        // A session keeps its delegate until it is invalidated. No load can be running here: each holds `self`.
        session.invalidateAndCancel()
    }

    public func load(_ url: URL, limits: LoadLimits, received: @escaping @Sendable (Int) -> Void) async throws
        -> LoadedData
    {
        try Task.checkCancellation()
        switch url.scheme?.lowercased() {
        case "http", "https": return try await loadHTTP(url, limits: limits, received: received)
        case "file": return try Self.loadFile(url, limits: limits, received: received)
        default: throw LoadError.unsupportedScheme(url: url)
        }
    }

    // MARK: HTTP

    private func loadHTTP(_ url: URL, limits: LoadLimits, received: @escaping @Sendable (Int) -> Void) async throws
        -> LoadedData
    {
        var request = URLRequest(url: url)
        // Our own timer bounds the whole request. URLSession's timeout is only a backstop, set past ours and in
        // whole seconds: swift-corelibs-foundation times out at once when it is under a second.
        request.timeoutInterval = Self.seconds(limits.timeout).rounded(.up) + 1
        let task = session.dataTask(with: request)
        let id = task.taskIdentifier
        transfers.register(Transfer(url: url, limits: limits, received: received, task: task), id: id)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfers.start(id, continuation: continuation)
            }
        } onCancel: {
            transfers.stop(id, with: CancellationError())
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    // MARK: Files

    /// Reads a local file in chunks, reporting each, within the byte limit. Image files are small: reading them on
    /// the calling task's thread costs less than handing the read to another thread.
    static func loadFile(_ url: URL, limits: LoadLimits, received: @Sendable (Int) -> Void) throws -> LoadedData {
        let path = url.path
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw LoadError.unreadableFile(path: path, reason: fileErrorReason(error))
        }
        if attributes[.type] as? FileAttributeType == .typeDirectory {
            throw LoadError.unreadableFile(path: path, reason: "it is a folder, not an image file")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        if size > limits.maxBytes { throw LoadError.tooLarge(limit: limits.maxBytes, url: url) }

        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw LoadError.unreadableFile(path: path, reason: fileErrorReason(error))
        }
        defer { try? handle.close() }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        while true {
            try Task.checkCancellation()
            let chunk: Data
            do {
                guard let read = try handle.read(upToCount: 256 << 10), !read.isEmpty else { break }
                chunk = read
            } catch {
                throw LoadError.unreadableFile(path: path, reason: fileErrorReason(error))
            }
            bytes.append(contentsOf: chunk)
            received(chunk.count)
            // The file may have grown since it was measured.
            if bytes.count > limits.maxBytes { throw LoadError.tooLarge(limit: limits.maxBytes, url: url) }
        }
        return LoadedData(bytes: bytes)
    }
}

/// A short reason for a failed file operation: "no such file", "permission denied", "No space left on device", …
func fileErrorReason(_ error: any Error) -> String {
    let nsError = error as NSError
    if nsError.domain == NSCocoaErrorDomain {
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
        case .fileReadNoPermission: return "permission denied"
        default: break
        }
    }
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(underlying.code)))
    }
    if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
    return nsError.localizedDescription
}

// MARK: - Per-task state

/// What the delegate knows about one HTTP load.
private struct Transfer {
    let url: URL
    let limits: LoadLimits
    let received: @Sendable (Int) -> Void
    let task: URLSessionDataTask
    var continuation: CheckedContinuation<LoadedData, any Error>?
    /// Why the load was stopped before it started, if it was.
    var stoppedEarly: (any Error)?
    var response: HTTPURLResponse?
    var bytes: [UInt8] = []
    var redirects = 0
    var timer: Task<Void, Never>?

    init(url: URL, limits: LoadLimits, received: @escaping @Sendable (Int) -> Void, task: URLSessionDataTask) {
        self.url = url
        self.limits = limits
        self.received = received
        self.task = task
    }
}

/// The session's delegate: routes each task's events, by task identifier, to that task's `Transfer`, and ends a
/// load exactly once (whichever comes first of completion, failure, a limit, the timer and cancellation).
private final class Transfers: NSObject, URLSessionDataDelegate, Sendable {
    private let table = Mutex<[Int: Transfer]>([:])

    func register(_ transfer: Transfer, id: Int) {
        table.withLock { $0[id] = transfer }
    }

    /// Starts the task, unless the load was cancelled before it could start.
    func start(_ id: Int, continuation: CheckedContinuation<LoadedData, any Error>) {
        enum Next { case resume(URLSessionDataTask), fail(URLSessionDataTask, any Error) }
        let next = table.withLock { table -> Next? in
            guard var transfer = table[id] else { return nil }
            if let error = transfer.stoppedEarly {
                table[id] = nil
                return .fail(transfer.task, error)
            }
            transfer.continuation = continuation
            let timeout = transfer.limits.timeout
            let error = LoadError.timedOut(after: timeout, url: transfer.url)
            transfer.timer = Task { [weak self] in
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                self?.stop(id, with: error)
            }
            table[id] = transfer
            return .resume(transfer.task)
        }
        switch next {
        case .resume(let task): task.resume()
        case .fail(let task, let error):
            task.cancel()
            continuation.resume(throwing: error)
        case nil: continuation.resume(throwing: CancellationError())
        }
    }

    /// Ends a load with `error` and cancels its task, which closes its connection. Events that arrive for the
    /// task afterwards find no transfer and are ignored.
    func stop(_ id: Int, with error: any Error) {
        let ended = table.withLock { table -> Transfer? in
            guard var transfer = table[id] else { return nil }
            guard transfer.continuation != nil else {
                // Not started yet: `start` sees this and never starts the task.
                if transfer.stoppedEarly == nil { transfer.stoppedEarly = error }
                table[id] = transfer
                return nil
            }
            table[id] = nil
            // Cancelled under the lock, so that it cannot come between a redirect's arrival and the answer to it
            // (see `willPerformHTTPRedirection`). `cancel()` only queues work on the task's own queue, which never
            // waits for this lock.
            transfer.task.cancel()
            return transfer
        }
        guard let ended else { return }
        ended.timer?.cancel()
        ended.continuation?.resume(throwing: error)
    }

    // MARK: URLSessionDataDelegate

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let id = dataTask.taskIdentifier
        let refusal = table.withLock { table -> LoadError? in
            guard var transfer = table[id], let http = response as? HTTPURLResponse else { return nil }
            transfer.response = http
            let url = transfer.url
            if !(200...299).contains(http.statusCode) {
                let retryAfter = DataLoader.retryAfter(http.value(forHTTPHeaderField: "Retry-After"))
                return .httpStatus(http.statusCode, url: url, retryAfter: retryAfter)
            }
            let expected = http.expectedContentLength
            if expected > transfer.limits.maxBytes {
                return .tooLarge(limit: transfer.limits.maxBytes, url: url)
            }
            if expected > 0 { transfer.bytes.reserveCapacity(Int(expected)) }
            table[id] = transfer
            return nil
        }
        // swift-corelibs-foundation ignores the disposition (it does not wait for this handler), so a refusal also
        // cancels the task itself, through `stop`.
        if let refusal {
            stop(id, with: refusal)
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        let accepted = table.withLock { table -> (received: @Sendable (Int) -> Void, over: LoadError?)? in
            guard table[id] != nil else { return nil }
            table[id]!.bytes.append(contentsOf: data)
            let transfer = table[id]!
            let over = transfer.bytes.count > transfer.limits.maxBytes
            return (transfer.received, over ? .tooLarge(limit: transfer.limits.maxBytes, url: transfer.url) : nil)
        }
        guard let accepted else { return }
        accepted.received(data.count)
        if let over = accepted.over { stop(id, with: over) }
    }

    /// Follows a redirect within the limit. swift-corelibs-foundation traps if a task is cancelled between a
    /// redirect's arrival and the answer to it ("Received callback for HTTP redirection, but we're not waiting for
    /// it"), so the answer is given under the lock that `stop` cancels under: a transfer that was stopped first is
    /// not answered at all (its task is already cancelled), and one that is refused here is not cancelled but left
    /// to finish on its own (the redirect's response is already whole).
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest,
                    completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        let id = task.taskIdentifier
        let refused = table.withLock { table -> (Transfer, LoadError)? in
            guard var transfer = table[id] else { return nil }
            transfer.redirects += 1
            guard transfer.redirects > transfer.limits.maxRedirects else {
                table[id] = transfer
                completionHandler(request)
                return nil
            }
            table[id] = nil
            completionHandler(nil)
            return (transfer, .tooManyRedirects(limit: transfer.limits.maxRedirects, url: transfer.url))
        }
        guard let (transfer, error) = refused else { return }
        transfer.timer?.cancel()
        transfer.continuation?.resume(throwing: error)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let id = task.taskIdentifier
        guard let transfer = table.withLock({ $0.removeValue(forKey: id) }) else { return }
        transfer.timer?.cancel()
        guard let continuation = transfer.continuation else { return }
        if let error {
            continuation.resume(throwing: DataLoader.loadError(error, url: transfer.url, limits: transfer.limits,
                                                               midBody: transfer.response != nil))
            return
        }
        guard let response = transfer.response else {
            continuation.resume(throwing: LoadError.connection("the server sent no HTTP response", url: transfer.url))
            return
        }
        continuation.resume(returning: LoadedData(
            bytes: transfer.bytes,
            contentType: response.value(forHTTPHeaderField: "Content-Type"),
            etag: response.value(forHTTPHeaderField: "ETag"),
            lastModified: response.value(forHTTPHeaderField: "Last-Modified")))
    }
}

// MARK: - Errors and headers

extension DataLoader {
    /// The `LoadError` for a URLSession failure, with a short reason a user can read. `midBody` says the response
    /// had begun: then a failure URLSession does not name (swift-corelibs-foundation reports a body cut short as
    /// an unknown error with curl's message) is a connection that broke.
    static func loadError(_ error: any Error, url: URL, limits: LoadLimits, midBody: Bool) -> any Error {
        let nsError = error as NSError
        let message = nsError.localizedDescription
        let brokeMidBody = "the connection broke before the whole response arrived"
        guard nsError.domain == NSURLErrorDomain else {
            return LoadError.connection(midBody ? "\(brokeMidBody) (\(message))" : message, url: url)
        }
        let reason: String
        switch URLError.Code(rawValue: nsError.code) {
        case .cancelled: return CancellationError()
        case .timedOut: return LoadError.timedOut(after: limits.timeout, url: url)
        case .httpTooManyRedirects: return LoadError.tooManyRedirects(limit: limits.maxRedirects, url: url)
        case .cannotConnectToHost: reason = "connection refused"
        case .networkConnectionLost: reason = brokeMidBody
        case .cannotFindHost, .dnsLookupFailed: reason = "host not found"
        case .notConnectedToInternet: reason = "no network connection"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
             .clientCertificateRequired:
            reason = "the secure (TLS) connection failed"
        case .badServerResponse, .cannotParseResponse: reason = "the server's response could not be understood"
        case .zeroByteResource: reason = "the server sent an empty response"
        default: reason = midBody ? "\(brokeMidBody) (\(message))" : message
        }
        return LoadError.connection(reason, url: url)
    }

    /// The wait a `Retry-After` header asks for: delta-seconds, or an HTTP date (IMF-fixdate, RFC 850 or asctime)
    /// counted from `now`; a date in the past asks for no wait.
    static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber) {
            return Int(value).map { .seconds($0) }
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: value) {
                let milliseconds = max(0, (date.timeIntervalSince(now) * 1000).rounded())
                return .milliseconds(Int64(milliseconds))
            }
        }
        return nil
    }
}
