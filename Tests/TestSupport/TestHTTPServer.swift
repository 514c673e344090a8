import FlyingFox
import FlyingSocks
import DemoServer
import Foundation
import HTTP
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1 for tests: it answers what a test declares, slowly or badly if asked, and
/// records every request so a test can assert on what reached the network and wait for it without sleeping.
///
/// ```swift
/// try await TestHTTPServer.with { server in          // stopped on every way out
///     server.serve("/a.png", .ok(png, contentType: "image/png"))
///     … load server.url("/a.png") …
///     #expect(server.requests(to: "/a.png").count == 1)
/// }
/// ```
///
/// `start()` and `stop()` are there for a test that keeps a server across steps (an end-to-end test pointing the
/// `thumbtable` binary at `baseURL`).
///
/// Built on FlyingFox; a reply's body goes through a sequence this server controls, which is how it paces a body,
/// drops a connection mid-body, and learns that a client went away (its next writes fail, so FlyingFox stops asking
/// for the body and drops it before the end).
public final class TestHTTPServer: Sendable {
    /// `http://127.0.0.1:PORT`, no trailing slash.
    public let baseURL: URL
    public let port: UInt16
    private let server: HTTPServer
    private let running: Task<Void, Never>
    private let recorder: Recorder

    /// Starts a server on 127.0.0.1 at a free port.
    ///
    /// - Parameters:
    ///   - latency: when set, each request waits a random time in this range before it is answered (before the
    ///     reply's own `delay`): for demos and end-to-end tests that want a network that feels real.
    ///   - seed: seeds the latency draws, so a run can be repeated (the order in which concurrent requests draw
    ///     still depends on their arrival).
    public static func start(latency: ClosedRange<Duration>? = nil, seed: UInt64 = 1) async throws
        -> TestHTTPServer
    {
        let recorder = Recorder(latency: latency, seed: seed)
        // The handler timeout bounds a reply's `delay`; tests that want a slow server set their own delays.
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 600, logger: .disabled,
                                handler: recorder)
        let running = Task { _ = try? await server.run() }
        do {
            try await server.waitUntilListening(timeout: 30)
        } catch {
            running.cancel()
            throw TestHTTPServerError("the test HTTP server did not start listening on 127.0.0.1: \(error)")
        }
        guard case .ip4(_, let port) = await server.listeningAddress else {
            running.cancel()
            throw TestHTTPServerError("the test HTTP server has no IPv4 address")
        }
        return TestHTTPServer(server: server, running: running, recorder: recorder, port: port)
    }

    private init(server: HTTPServer, running: Task<Void, Never>, recorder: Recorder, port: UInt16) {
        self.server = server
        self.running = running
        self.recorder = recorder
        self.port = port
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Stops listening and drops every open connection; waits until the server has stopped.
    public func stop() async {
        recorder.markStopped()
        await server.stop(timeout: 0)
        running.cancel()
        await running.value
    }

    /// Starts a server, runs `body` with it, and stops the server on every way out of `body`.
    public static func with<T>(latency: ClosedRange<Duration>? = nil, seed: UInt64 = 1,
                               _ body: (TestHTTPServer) async throws -> T) async throws -> T {
        let server = try await start(latency: latency, seed: seed)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// The URL of `path` on this server (`path` starts with "/").
    public func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString + path)!
    }

    // MARK: Declaring what to serve

    /// Answers every request for `path` (without its query) with `reply`. A later declaration for the same path
    /// replaces the earlier one.
    public func serve(_ path: String, _ reply: Reply) {
        recorder.setRoute(path) { _ in reply }
    }

    /// Answers the first request for `path` with the first reply, the second with the second, and every later one
    /// with the last: a 503 then a 200, say.
    public func serve(_ path: String, replies: [Reply]) {
        precondition(!replies.isEmpty, "serve(_:replies:) needs at least one reply")
        recorder.setRoute(path) { request in replies[min(request.attempt, replies.count) - 1] }
    }

    /// Answers requests for `path` with whatever `reply` returns for them.
    public func serve(_ path: String, reply: @escaping @Sendable (Request) -> Reply) {
        recorder.setRoute(path, reply)
    }

    /// Serves the files under `directory` at `prefix` ("/images/" serves `directory/a.png` as `/images/a.png`),
    /// with a content type from the file extension. Paths declared with `serve` win; a missing file is a 404.
    public func serveDirectory(_ directory: URL, at prefix: String = "/") {
        recorder.addMount(prefix: prefix.hasSuffix("/") ? prefix : prefix + "/", directory: directory)
    }

    // MARK: What happened

    /// Every request so far, in order of arrival.
    public var requests: [Request] { recorder.snapshot() }

    /// The requests for `path` (without the query), in order of arrival.
    public func requests(to path: String) -> [Request] {
        requests.filter { $0.path == path }
    }

    /// Waits until `condition` holds for the requests so far; false after `timeout` (a safety net so a broken
    /// build fails rather than hangs). The condition is checked on each request and each change of a request's
    /// outcome, never on a timer.
    @discardableResult
    public func waitUntil(timeout: Duration = .seconds(20),
                          _ condition: @escaping @Sendable ([Request]) -> Bool) async -> Bool {
        await recorder.wait(timeout: timeout, condition)
    }

    /// Waits until `count` requests for `path` have arrived.
    @discardableResult
    public func waitForRequests(to path: String, count: Int = 1, timeout: Duration = .seconds(20)) async -> Bool {
        await waitUntil(timeout: timeout) { requests in requests.count { $0.path == path } >= count }
    }

    /// Waits until the client closed the connection of a request for `path` before its reply was fully written.
    @discardableResult
    public func waitForClientClose(of path: String, timeout: Duration = .seconds(20)) async -> Bool {
        await waitUntil(timeout: timeout) { requests in
            requests.contains { $0.path == path && $0.outcome == .closedByClient }
        }
    }

    /// Waits until no request is still being answered (every one completed, was reset or lost its client).
    @discardableResult
    public func waitUntilIdle(timeout: Duration = .seconds(20)) async -> Bool {
        await waitUntil(timeout: timeout) { requests in requests.allSatisfy { $0.outcome != .answering } }
    }
}

// MARK: - Replies and requests

extension TestHTTPServer {
    /// What the server answers to a request: a status, headers, a body, and how to send them.
    public struct Reply: Sendable {
        public var status: Int
        /// Extra headers. `Content-Length` is added unless `chunked`; a test may set its own to lie.
        public var headers: [String: String]
        public var body: [UInt8]
        /// A pause before the status line is sent.
        public var delay: Duration?
        /// When set, the body goes out in chunks of this many bytes with a pause before each chunk after the
        /// first, so a test can act while the body is arriving.
        public var pacing: Pacing?
        /// When set, the connection is dropped after this many bytes of the body: the client sees it end early.
        public var dropAfter: Int?
        /// Sends the body with chunked transfer encoding and no `Content-Length`.
        public var chunked: Bool
        /// When set, the status line, the headers and this many bytes of the body are sent, then nothing more until
        /// the server stops: a server that stalls mid-body (0: right after the headers).
        public var stallAfter: Int?

        public struct Pacing: Sendable {
            public var chunkSize: Int
            public var interval: Duration
            public init(chunkSize: Int, interval: Duration) {
                precondition(chunkSize > 0)
                self.chunkSize = chunkSize
                self.interval = interval
            }
        }

        public init(status: Int = 200, headers: [String: String] = [:], body: [UInt8] = [],
                    delay: Duration? = nil, pacing: Pacing? = nil, dropAfter: Int? = nil, chunked: Bool = false,
                    stallAfter: Int? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.pacing = pacing
            self.dropAfter = dropAfter
            self.chunked = chunked
            self.stallAfter = stallAfter
        }

        /// A reply that never comes: the request is read, and nothing is sent until the server stops.
        public static let never = Reply(delay: .seconds(86_400))

        /// A 200 with `body`.
        public static func ok(_ body: [UInt8], contentType: String? = nil, headers: [String: String] = [:]) -> Reply {
            var headers = headers
            if let contentType { headers["Content-Type"] = contentType }
            return Reply(status: 200, headers: headers, body: body)
        }

        /// A 200 with the UTF-8 bytes of `text`.
        public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> Reply {
            .ok(Array(text.utf8), contentType: contentType)
        }

        /// An empty reply with `status`.
        public static func status(_ status: Int, headers: [String: String] = [:]) -> Reply {
            Reply(status: status, headers: headers)
        }

        /// A redirect to `location` (a path on this server or a full URL).
        public static func redirect(to location: String, status: Int = 302) -> Reply {
            Reply(status: status, headers: ["Location": location])
        }

        /// This reply, after a pause before the status line.
        public func delayed(by delay: Duration) -> Reply {
            var copy = self
            copy.delay = delay
            return copy
        }

        /// This reply with its body sent in chunks of `chunkSize` bytes, `interval` apart.
        public func paced(chunkSize: Int, interval: Duration) -> Reply {
            var copy = self
            copy.pacing = Pacing(chunkSize: chunkSize, interval: interval)
            return copy
        }

        /// This reply with its body stalled for good after `bytes` bytes (0: right after the headers).
        public func stalled(after bytes: Int) -> Reply {
            var copy = self
            copy.stallAfter = bytes
            return copy
        }

        /// This reply with its connection dropped after `bytes` bytes of the body.
        public func dropped(after bytes: Int) -> Reply {
            var copy = self
            copy.dropAfter = bytes
            return copy
        }
    }

    /// A request the server received.
    public struct Request: Sendable {
        /// 1 for the first request this server received, then 2, …
        public let number: Int
        /// 1 for the first request for this path, then 2, …
        public let attempt: Int
        public let method: String
        /// The path without the query.
        public let path: String
        public let query: [String: String]
        /// Header names lowercased.
        public let headers: [String: String]
        public let arrivedAt: ContinuousClock.Instant
        /// How answering it has gone so far.
        public internal(set) var outcome: Outcome
    }

    /// How answering a request went.
    public enum Outcome: Sendable, Equatable {
        /// Waiting to answer, or the body is still being written.
        case answering
        /// The whole reply was handed to the socket.
        case completed
        /// The client closed the connection before the whole reply was written (the server's writes failed).
        case closedByClient
        /// The reply's `dropAfter` dropped the connection mid-body.
        case droppedByServer
    }
}

/// Why the test server could not start.
public struct TestHTTPServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

// MARK: - The handler and its records

/// Routes requests to replies and keeps the record; the FlyingFox handler of a `TestHTTPServer`.
private final class Recorder: HTTPHandler, Sendable {
    typealias Route = @Sendable (TestHTTPServer.Request) -> TestHTTPServer.Reply

    private struct Waiter {
        var id: Int
        var condition: @Sendable ([TestHTTPServer.Request]) -> Bool
        var continuation: CheckedContinuation<Bool, Never>
        var timer: Task<Void, Never>?
    }

    private struct State {
        var routes: [String: Route] = [:]
        var mounts: [(prefix: String, directory: URL)] = []
        var requests: [TestHTTPServer.Request] = []
        var attempts: [String: Int] = [:]
        var latency: ClosedRange<Duration>?
        var random: SplitMix64
        var waiters: [Waiter] = []
        var nextWaiterID = 0
        var stopped = false
    }

    private let state: Mutex<State>

    init(latency: ClosedRange<Duration>?, seed: UInt64) {
        state = Mutex(State(latency: latency, random: SplitMix64(seed: seed)))
    }

    func setRoute(_ path: String, _ route: @escaping Route) {
        state.withLock { $0.routes[path] = route }
    }

    func addMount(prefix: String, directory: URL) {
        state.withLock { $0.mounts.append((prefix, directory)) }
    }

    func snapshot() -> [TestHTTPServer.Request] {
        state.withLock { $0.requests }
    }

    func markStopped() {
        state.withLock { $0.stopped = true }
    }

    // MARK: Answering

    func handleRequest(_ http: HTTPRequest) async throws -> HTTPResponse {
        let (request, route, mounts, latency) = state.withLock { state in
            let attempt = state.attempts[http.path, default: 0] + 1
            state.attempts[http.path] = attempt
            var headers: [String: String] = [:]
            for (name, value) in http.headers { headers[name.rawValue.lowercased()] = value }
            var query: [String: String] = [:]
            for item in http.query { query[item.name] = item.value }
            let request = TestHTTPServer.Request(
                number: state.requests.count + 1, attempt: attempt, method: http.method.rawValue, path: http.path,
                query: query, headers: headers, arrivedAt: .now, outcome: .answering)
            state.requests.append(request)
            let latency = state.latency.map { range in
                range.lowerBound + (range.upperBound - range.lowerBound) * state.random.nextFraction()
            }
            return (request, state.routes[http.path], state.mounts, latency)
        }
        wakeWaiters()

        let reply = route?(request) ?? Self.file(for: request.path, in: mounts) ?? .status(404)
        // A client that goes away during these pauses is only noticed when the reply is written.
        if let latency { try await Task.sleep(for: latency) }
        if let delay = reply.delay { try await Task.sleep(for: delay) }

        var headers = HTTPHeaders()
        for (name, value) in reply.headers { headers[HTTPHeader(name)] = value }
        let body = ReplyBody(reply: reply, watch: BodyWatch(number: request.number, recorder: self))
        let sequence = reply.chunked
            ? HTTPBodySequence(from: body, suggestedBufferSize: body.chunkSize)
            : HTTPBodySequence(from: body, count: reply.body.count, suggestedBufferSize: body.chunkSize)
        let status = HTTPStatusCode(reply.status, phrase: httpReasonPhrase(reply.status))
        return HTTPResponse(statusCode: status, headers: headers, body: sequence)
    }

    /// A file under a mounted directory, or nil when the path is under no mount.
    private static func file(for path: String, in mounts: [(prefix: String, directory: URL)])
        -> TestHTTPServer.Reply?
    {
        guard let mount = mounts.last(where: { path.hasPrefix($0.prefix) }) else { return nil }
        let relative = path.dropFirst(mount.prefix.count).split(separator: "/").map(String.init)
        guard !relative.isEmpty, !relative.contains(where: { $0 == ".." || $0 == "." }) else { return .status(404) }
        let file = relative.reduce(mount.directory) { $0.appendingPathComponent($1) }
        guard let data = FileManager.default.contents(atPath: file.path) else { return .status(404) }
        return .ok(Array(data), contentType: contentType(forExtension: file.pathExtension))
    }

    private static func contentType(forExtension ext: String) -> String {
        switch ext.lowercased() {
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "json": "application/json"
        case "html", "htm": "text/html; charset=utf-8"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    // MARK: Outcomes and waiting

    /// Sets a request's outcome once: the first of completed, dropped or closed wins. Nothing is recorded after
    /// `stop()`, when the server itself drops the connections.
    func record(_ outcome: TestHTTPServer.Outcome, for number: Int) {
        let changed = state.withLock { state -> Bool in
            guard !state.stopped, state.requests[number - 1].outcome == .answering else { return false }
            state.requests[number - 1].outcome = outcome
            return true
        }
        if changed { wakeWaiters() }
    }

    func wait(timeout: Duration, _ condition: @escaping @Sendable ([TestHTTPServer.Request]) -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            let id: Int? = state.withLock { state in
                if condition(state.requests) { return nil }
                state.nextWaiterID += 1
                state.waiters.append(Waiter(id: state.nextWaiterID, condition: condition, continuation: continuation))
                return state.nextWaiterID
            }
            guard let id else { return continuation.resume(returning: true) }
            let timer = Task { [weak self] in
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                self?.expire(id)
            }
            // The waiter may already have been woken; then the timer has nothing to do.
            let cancelTimer = state.withLock { state -> Bool in
                guard let i = state.waiters.firstIndex(where: { $0.id == id }) else { return true }
                state.waiters[i].timer = timer
                return false
            }
            if cancelTimer { timer.cancel() }
        }
    }

    private func wakeWaiters() {
        let woken = state.withLock { state -> [Waiter] in
            let requests = state.requests
            var woken: [Waiter] = []
            state.waiters.removeAll { waiter in
                guard waiter.condition(requests) else { return false }
                woken.append(waiter)
                return true
            }
            return woken
        }
        for waiter in woken {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: true)
        }
    }

    private func expire(_ id: Int) {
        let expired = state.withLock { state -> Waiter? in
            guard let i = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: i)
        }
        expired?.continuation.resume(returning: false)
    }
}

/// Reports how the body of one reply ended. FlyingFox asks the body for chunks until it ends, and stops asking
/// (dropping the body) when a write fails because the client went away: so a body dropped before its end, other
/// than by `dropAfter`, means the client closed the connection.
private final class BodyWatch: Sendable {
    let number: Int
    let recorder: Recorder
    private let ended = Atomic<Bool>(false)

    init(number: Int, recorder: Recorder) {
        self.number = number
        self.recorder = recorder
    }

    func end(_ outcome: TestHTTPServer.Outcome) {
        guard !ended.exchange(true, ordering: .relaxed) else { return }
        recorder.record(outcome, for: number)
    }

    deinit {
        if !ended.load(ordering: .relaxed) { recorder.record(.closedByClient, for: number) }
    }
}

/// The body of a reply as FlyingFox reads it: in chunks, paced and dropped as the reply says.
private struct ReplyBody: AsyncBufferedSequence {
    typealias Element = UInt8
    let bytes: [UInt8]
    let chunkSize: Int
    let interval: Duration?
    let dropAfter: Int?
    let stallAfter: Int?
    let watch: BodyWatch

    init(reply: TestHTTPServer.Reply, watch: BodyWatch) {
        bytes = reply.body
        chunkSize = reply.pacing?.chunkSize ?? 64 << 10
        interval = reply.pacing?.interval
        dropAfter = reply.dropAfter
        stallAfter = reply.stallAfter
        self.watch = watch
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(body: self)
    }

    struct Dropped: Error {}

    struct Iterator: AsyncBufferedIteratorProtocol {
        let body: ReplyBody
        var offset = 0

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> ArraySlice<UInt8>? {
            if let dropAfter = body.dropAfter, offset >= dropAfter {
                body.watch.end(.droppedByServer)
                throw Dropped()
            }
            guard offset < body.bytes.count else {
                body.watch.end(.completed)
                return nil
            }
            // Ended by the server's stop, which cancels this task.
            if let stallAfter = body.stallAfter, offset >= stallAfter { try await Task.sleep(for: .seconds(86_400)) }
            if offset > 0, let interval = body.interval { try await Task.sleep(for: interval) }
            var end = Swift.min(body.bytes.count, offset + Swift.min(Swift.max(count, 1), body.chunkSize))
            if let dropAfter = body.dropAfter { end = Swift.min(end, dropAfter) }
            if let stallAfter = body.stallAfter, offset < stallAfter { end = Swift.min(end, stallAfter) }
            defer { offset = end }
            return body.bytes[offset..<end]
        }
    }
}
