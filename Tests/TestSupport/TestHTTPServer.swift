import DemoServer
import Foundation
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
/// Runs on the demo's `LoopbackServer`, which does the delaying, pacing, dropping and stalling and tells how each
/// reply's sending ended; this type adds the routes and the record.
public final class TestHTTPServer: Sendable {
    /// `http://127.0.0.1:PORT`, no trailing slash.
    public let baseURL: URL
    public let port: UInt16
    private let server: LoopbackServer
    private let recorder: Recorder

    /// Starts a server on 127.0.0.1 at a free port.
    ///
    /// - Parameters:
    ///   - latency: when set, each request waits a random time in this range before it is answered (before the
    ///     reply's own `delay`): for demos and end-to-end tests that want a network that feels real.
    ///   - seed: seeds the latency draws: the same seed gives each request for a path the same latency, run after
    ///     run, as the demo server's `--seed` does.
    public static func start(latency: ClosedRange<Duration>? = nil, seed: UInt64 = 1) async throws
        -> TestHTTPServer
    {
        let plan = latency.map { range in
            FaultPlan(latency: range.lowerBound, jitter: range.upperBound - range.lowerBound, failRate: 0, seed: seed)
        }
        let recorder = Recorder(latency: plan)
        do {
            let server = try LoopbackServer { request in recorder.answer(request) }
            return TestHTTPServer(server: server, recorder: recorder)
        } catch {
            throw TestHTTPServerError("the test HTTP server cannot listen on 127.0.0.1: \(error.reason)")
        }
    }

    private init(server: LoopbackServer, recorder: Recorder) {
        self.server = server
        self.recorder = recorder
        port = server.port
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Stops listening and drops every open connection, and with them the replies being made.
    public func stop() async {
        recorder.markStopped()
        server.stop()
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

    /// Answers every request for `path` (without its query and a trailing slash) with `reply`. A later declaration
    /// for the same path replaces the earlier one.
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
    public func waitUntil(timeout: Duration = Deadline.generous,
                          _ condition: @escaping @Sendable ([Request]) -> Bool) async -> Bool {
        await recorder.wait(timeout: timeout, condition)
    }

    /// Waits until `count` requests for `path` have arrived.
    @discardableResult
    public func waitForRequests(to path: String, count: Int = 1, timeout: Duration = Deadline.generous) async -> Bool {
        await waitUntil(timeout: timeout) { requests in requests.count { $0.path == path } >= count }
    }

    /// Waits until the client closed the connection of a request for `path` before its reply was fully written.
    @discardableResult
    public func waitForClientClose(of path: String, timeout: Duration = Deadline.generous) async -> Bool {
        await waitUntil(timeout: timeout) { requests in
            requests.contains { $0.path == path && $0.outcome == .closedByClient }
        }
    }

    /// Waits until no request is still being answered (every one completed, was reset or lost its client).
    @discardableResult
    public func waitUntilIdle(timeout: Duration = Deadline.generous) async -> Bool {
        await waitUntil(timeout: timeout) { requests in requests.allSatisfy { $0.outcome != .answering } }
    }
}

// MARK: - Replies and requests

extension TestHTTPServer {
    /// What the server answers to a request: a status, headers, a body, and how to send them (late, paced, dropped,
    /// stalled), as the demo server answers.
    public typealias Reply = LoopbackServer.Response

    /// A request the server received.
    public struct Request: Sendable {
        /// 1 for the first request this server received, then 2, …
        public let number: Int
        /// 1 for the first request for this path, then 2, …
        public let attempt: Int
        public let method: String
        /// The path without the query and a trailing slash.
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
        /// The client closed the connection before the whole reply was written (the server's writes failed, or a
        /// stalled body saw the connection end).
        case closedByClient
        /// The reply's `dropAfter` dropped the connection mid-body.
        case droppedByServer

        init(_ outcome: LoopbackServer.Outcome) {
            switch outcome {
            case .completed: self = .completed
            case .closedByClient: self = .closedByClient
            case .droppedByServer: self = .droppedByServer
            }
        }
    }
}

// MARK: - Replies tests declare

extension LoopbackServer.Response {
    /// A reply that never comes: the request is read, and nothing is sent until the server stops.
    public static let never = Self(delay: .seconds(86_400))

    /// A 200 with `body`.
    public static func ok(_ body: [UInt8], contentType: String? = nil, headers: [String: String] = [:]) -> Self {
        var headers = headers
        if let contentType { headers["Content-Type"] = contentType }
        return Self(status: 200, headers: headers, body: body)
    }

    /// A 200 with the UTF-8 bytes of `text`.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> Self {
        .ok(Array(text.utf8), contentType: contentType)
    }

    /// An empty reply with `status`.
    public static func status(_ status: Int, headers: [String: String] = [:]) -> Self {
        Self(status: status, headers: headers)
    }

    /// A redirect to `location` (a path on this server or a full URL).
    public static func redirect(to location: String, status: Int = 302) -> Self {
        Self(status: status, headers: ["Location": location])
    }

    /// This reply, after a pause before the status line.
    public func delayed(by delay: Duration) -> Self {
        var copy = self
        copy.delay = delay
        return copy
    }

    /// This reply with its body sent in chunks of `chunkSize` bytes, `interval` apart.
    public func paced(chunkSize: Int, interval: Duration) -> Self {
        var copy = self
        copy.pacing = Pacing(chunkSize: chunkSize, interval: interval)
        return copy
    }

    /// This reply with its body stalled for good after `bytes` bytes (0: right after the headers).
    public func stalled(after bytes: Int) -> Self {
        var copy = self
        copy.stallAfter = bytes
        return copy
    }

    /// This reply with its connection dropped after `bytes` bytes of the body.
    public func dropped(after bytes: Int) -> Self {
        var copy = self
        copy.dropAfter = bytes
        return copy
    }
}

/// Why the test server could not start.
public struct TestHTTPServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

// MARK: - The handler and its records

/// Routes requests to replies and keeps the record; the handler of a `TestHTTPServer`'s loopback server.
private final class Recorder: Sendable {
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
        var waiters: [Waiter] = []
        var nextWaiterID = 0
        var stopped = false
    }

    private let state = Mutex(State())
    /// Draws each request's latency, when the server has one.
    private let latency: FaultPlan?

    init(latency: FaultPlan?) {
        self.latency = latency
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

    func answer(_ http: LoopbackServer.Request) -> LoopbackServer.Response {
        // Routes are declared without a trailing slash: "/api/species" answers "/api/species/".
        let path = http.path.count > 1 && http.path.hasSuffix("/") ? String(http.path.dropLast()) : http.path
        let (request, route, mounts) = state.withLock { state in
            let attempt = state.attempts[path, default: 0] + 1
            state.attempts[path] = attempt
            var query: [String: String] = [:]
            for item in http.query { query[item.name] = item.value }
            let request = TestHTTPServer.Request(
                number: state.requests.count + 1, attempt: attempt, method: http.method, path: path,
                query: query, headers: http.headers, arrivedAt: .now, outcome: .answering)
            state.requests.append(request)
            return (request, state.routes[path], state.mounts)
        }
        wakeWaiters()

        var reply = route?(request) ?? Self.file(for: request.path, in: mounts) ?? .status(404)
        // A client that goes away during the delay is only noticed when the reply is written.
        reply.delay += latency?.decide(key: request.path, attempt: request.attempt).delay ?? .zero
        let number = request.number
        reply.ended = { [weak self] outcome in self?.record(TestHTTPServer.Outcome(outcome), for: number) }
        return reply
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

    /// Sets a request's outcome once. Nothing is recorded after `stop()`, when the server itself drops the
    /// connections.
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
