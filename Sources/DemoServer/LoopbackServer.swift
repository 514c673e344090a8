import Basics
import FoundationEssentials
import Glibc
import HTTP
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1, the one the demo and the tests' servers both run on: requests on keep-alive
/// connections, answered by a handler, and sent the way the answer asks: late, slowly, cut off mid-body or stalled,
/// reporting how each send ended (whole, dropped by us, or abandoned by the client).
///
/// One thread per connection, with blocking reads, writes and waits: a demo or a test has a handful of connections,
/// a thread that blocks in `send` is how the server learns that a client went away mid-body, and nothing it does
/// waits for the Swift cooperative pool, which a busy test run can keep full for seconds.
///
/// Its neighbours cannot take it over: it holds at most `maxConnections` (a new one closes the oldest that is
/// waiting for a request, so idle connections never lock out the demo's own), a request's head must arrive within
/// `headDeadline` of the server waiting for it (an idle keep-alive connection is closed then too), and reading a
/// head costs time linear in its bytes however they are cut.
///
/// It is ours rather than FlyingFox's, measured (README, "Where we wrote our own"): linked into `thumbtable`,
/// FlyingFox loads libcurl at every start through FoundationNetworking (the HTTP module opens it only on the first
/// request; a small `render` went from 14 to 29 ms), and its answers on a kept-alive connection each wait about
/// 40 ms for the client's delayed ACK.
public final class LoopbackServer: Sendable {
    /// A request's head (a body, which a GET should not have, is skipped).
    public struct Request: Sendable {
        /// "GET", "HEAD", …
        public var method: String
        /// The path, percent-decoded: "/api/species/".
        public var path: String
        /// The query's items in order, percent-decoded.
        public var query: [(name: String, value: String)]
        /// The headers, names lowercased; of a repeated header, the last.
        public var headers: [String: String]
        /// The `Host` header, if sent.
        public var host: String? { headers["host"] }
    }

    /// An answer and how to send it. The handler decides it; the server does the waiting and the cutting, so the
    /// demo's latency and faults and the tests' are the same code.
    public struct Response: Sendable {
        public var status: Int
        /// Sent sorted by name. `Content-Length` is added unless `chunked` or already there (a test may lie with it).
        public var headers: [String: String]
        public var body: [UInt8]
        /// A pause before the status line.
        public var delay: Duration
        /// When set, the body goes out in chunks of this many bytes with a pause before each chunk after the first.
        public var pacing: Pacing?
        /// When set, the connection is closed after this many bytes of the body: the client sees it end early.
        public var dropAfter: Int?
        /// Sends the body with chunked transfer encoding and no `Content-Length`.
        public var chunked: Bool
        /// When set, the head and this many bytes of the body are sent, then nothing until the client closes the
        /// connection or the server stops: a server that stalls mid-body (0: right after the headers).
        public var stallAfter: Int?
        /// Told once how sending ended, unless the server was stopped first.
        public var ended: (@Sendable (Outcome) -> Void)?

        public struct Pacing: Sendable {
            public var chunkSize: Int
            public var interval: Duration
            public init(chunkSize: Int, interval: Duration) {
                precondition(chunkSize > 0)
                self.chunkSize = chunkSize
                self.interval = interval
            }
        }

        public init(status: Int = 200, headers: [String: String] = [:], body: [UInt8] = [], delay: Duration = .zero,
                    pacing: Pacing? = nil, dropAfter: Int? = nil, chunked: Bool = false, stallAfter: Int? = nil,
                    ended: (@Sendable (Outcome) -> Void)? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.pacing = pacing
            self.dropAfter = dropAfter
            self.stallAfter = stallAfter
            self.chunked = chunked
            self.ended = ended
        }
    }

    /// How sending a response ended.
    public enum Outcome: Sendable, Equatable {
        /// The whole response was handed to the socket.
        case completed
        /// The client closed the connection before the whole response was written (a write failed, or a stalled
        /// body saw the connection end).
        case closedByClient
        /// The response's `dropAfter` closed the connection mid-body.
        case droppedByServer
    }

    /// Answers a request, on the connection's thread; it should decide quickly (the response's `delay` is waited
    /// by the server).
    public typealias Handler = @Sendable (Request) -> Response

    /// Why the server could not listen.
    public struct ListenFailure: Error, Sendable {
        public var reason: String
    }

    public let port: UInt16
    /// The most connections held at once: far below the 1,024 descriptors a process has by default, and each is a
    /// thread.
    public let maxConnections: Int
    /// How long a request's head may take to arrive, from when the server starts waiting for it.
    public let headDeadline: Duration
    private let socket: Int32
    private let handler: Handler
    private let state = Mutex<State>(State())

    private struct State {
        var stopped = false
        var connections: [Int32: Connection] = [:]
        var accepted: UInt64 = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// What the server knows of an open connection, for choosing one to close when there are too many.
    private struct Connection {
        /// The order it was accepted in.
        var number: UInt64
        /// Waiting for a request's head: closing it loses no answer being made.
        var waiting = true
        /// Shut down to make room: no longer counted; its thread closes it.
        var closing = false
    }

    /// Listens on 127.0.0.1:`port` (0 takes a free port) and starts accepting. Throws a reason a user can read.
    public init(port: UInt16 = 0, maxConnections: Int = 128, headDeadline: Duration = .seconds(10),
                handler: @escaping Handler) throws(ListenFailure) {
        self.maxConnections = max(1, maxConnections)
        self.headDeadline = headDeadline
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ListenFailure(reason: Self.errnoText()) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // SOMAXCONN: a burst of connections (a test's concurrent loads, a fast scroll) waits in the queue rather
        // than being refused.
        guard bound == 0, listen(fd, SOMAXCONN) == 0 else {
            let reason = Self.errnoText()
            close(fd)
            throw ListenFailure(reason: reason)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.port = UInt16(bigEndian: address.sin_port)
        socket = fd
        self.handler = handler
        guard BackgroundThread.start(name: "loopback accept", { [self] in acceptConnections() }) else {
            close(fd)
            throw ListenFailure(reason: "no thread to accept connections")
        }
    }

    /// Stops accepting and closes every open connection. Answers being made or waited for are dropped.
    public func stop() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.stopped else { return [] }
            state.stopped = true
            // Shutting a socket down wakes the thread blocked on it (in an accept, a read, a write or a delay); that
            // thread closes it. Under the lock, because a connection's thread closes its socket under it too: a
            // number closed and reused by another server in the process must never be shut down here.
            shutdown(socket, Int32(SHUT_RDWR))
            for connection in state.connections.keys { shutdown(connection, Int32(SHUT_RDWR)) }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once `stop()` has been called.
    public func waitUntilStopped() async {
        await withCheckedContinuation { continuation in
            let stopped = state.withLock { state in
                if !state.stopped { state.waiters.append(continuation) }
                return state.stopped
            }
            if stopped { continuation.resume() }
        }
    }

    var isStopped: Bool { state.withLock { $0.stopped } }

    // MARK: Connections

    private func acceptConnections() {
        while true {
            let connection = accept(socket, nil, nil)
            if connection < 0 {
                let error = errno
                if isStopped { break }
                // Out of descriptors or memory for a moment: the server keeps listening and tries again shortly.
                if error != EINTR && error != ECONNABORTED { BackgroundThread.sleep(milliseconds: 10) }
                continue
            }
            let accepted = state.withLock { state -> Bool? in
                guard !state.stopped else { return nil }
                guard makeRoom(in: &state) else { return false }
                state.accepted += 1
                state.connections[connection] = Connection(number: state.accepted)
                return true
            }
            guard let accepted else {
                close(connection)
                break
            }
            // Full of connections all busy answering: this one is closed rather than queued behind them.
            guard accepted else {
                close(connection)
                continue
            }
            // Close-on-exec (Swift's Glibc module lacks accept4); a child started in between gets nothing anyway,
            // as ChildProcess closes everything past stderr.
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            var yes: Int32 = 1
            setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            if !BackgroundThread.start(name: "loopback conn", { [self] in serve(connection) }) {
                // No thread to serve it: the client sees the connection close.
                state.withLock { $0.connections[connection] = nil }
                close(connection)
            }
        }
        close(socket)
    }

    /// Whether a new connection may be held: below the limit, or once the oldest connection waiting for a request
    /// is shut down to make room (its thread closes it). False when every connection is busy answering.
    private func makeRoom(in state: inout State) -> Bool {
        let open = state.connections.values.filter { !$0.closing }
        guard open.count >= maxConnections else { return true }
        guard let oldest = state.connections.filter({ $0.value.waiting && !$0.value.closing })
            .min(by: { $0.value.number < $1.value.number }) else { return false }
        state.connections[oldest.key]?.closing = true
        shutdown(oldest.key, Int32(SHUT_RDWR))
        return true
    }

    /// Marks a connection as waiting for a request (it may be closed to make room) or answering one; false when
    /// it was shut down to make room meanwhile.
    @discardableResult
    private func setWaiting(_ connection: Int32, _ waiting: Bool) -> Bool {
        state.withLock { state in
            state.connections[connection]?.waiting = waiting
            return state.connections[connection]?.closing == false
        }
    }

    /// Answers the requests on one connection in turn until the client closes it, asks to, or the server stops.
    private func serve(_ connection: Int32) {
        defer {
            state.withLock { state in
                state.connections[connection] = nil
                close(connection)
            }
        }
        var reader = HeadReader()
        while true {
            setWaiting(connection, true)
            guard let (request, keepAlive) = readRequest(connection, reader: &reader),
                  setWaiting(connection, false) else { return }
            let response = handler(request)
            let outcome = pause(for: response.delay, on: connection)
                ? send(response, to: connection, withBody: request.method != "HEAD")
                : .closedByClient
            // A send the server's stop cut short is not the client's doing; nobody is told.
            guard let outcome, !isStopped else { return }
            response.ended?(outcome)
            if outcome != .completed || !keepAlive { return }
        }
    }

    /// Reads the next request's head. Nil when the connection ends, sends something that is not an HTTP request,
    /// or does not finish the head by `headDeadline`; a malformed request is answered with 400 first.
    private func readRequest(_ connection: Int32, reader: inout HeadReader) -> (Request, keepAlive: Bool)? {
        let deadline = ContinuousClock.now + headDeadline
        let end: Int
        while true {
            if let found = reader.endOfHead() {
                end = found
                break
            }
            guard reader.pending.count < 64 << 10 else { return nil }
            guard reader.receive(from: connection, until: deadline) else { return nil }
            // A request starts with a method in capitals; anything else (a TLS hello to this plain-HTTP server)
            // is closed at once rather than waited on.
            guard let first = reader.pending.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) else {
                return nil
            }
        }
        let head = String(decoding: reader.pending[..<end], as: UTF8.self)
        reader.consume(end + 4)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let parts = lines[0].split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingSpaces()
            headers[line[..<colon].lowercased()] = value
        }
        guard parts.count == 3, let components = URLComponents(string: String(parts[1])) else {
            _ = send(Response(status: 400, body: Array("bad request\n".utf8)), to: connection, withBody: true)
            return nil
        }
        if let length = headers["content-length"].flatMap(Int.init), length > 0 {
            guard length <= 1 << 20, reader.skip(length, on: connection, until: deadline) else { return nil }
        }
        let request = Request(method: String(parts[0]), path: components.path,
                              query: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") },
                              headers: headers)
        let keepAlive = parts[2] == "HTTP/1.1" && headers["connection"]?.lowercased() != "close"
        return (request, keepAlive)
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
