import Foundation
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1: what the demo needs and no more. GET requests on keep-alive connections,
/// one thread per connection (blocking reads and writes; the demo has a handful of connections), answers made by an
/// async handler, and a body that can be cut off mid-way to play a connection that breaks.
///
/// It is ours rather than a package's so that the `thumbtable` binary links no HTTP server framework (the one we
/// used pulled in Foundation's URLSession, and with it libcurl at every start, even for `thumbtable render`).
final class HTTPListener: Sendable {
    struct Request: Sendable {
        /// The path, percent-decoded: "/api/species/".
        var path: String
        /// The query's items in order, percent-decoded.
        var query: [(name: String, value: String)]
        /// The `Host` header, if sent.
        var host: String?
    }

    struct Response: Sendable {
        var status: Int
        var reason: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]
        /// Closes the connection after this many bytes of the body, which the client sees as a broken connection.
        var breaksAfter: Int?
    }

    typealias Handler = @Sendable (Request) async -> Response

    let port: UInt16
    private let socket: Int32
    private let handler: Handler
    private let state = Mutex<State>(State())

    private struct State {
        var stopped = false
        var connections: Set<Int32> = []
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Listens on 127.0.0.1:`port` (0 takes a free port) and starts accepting. Throws a reason a user can read.
    init(port: UInt16, handler: @escaping Handler) throws(ListenFailure) {
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
        guard bound == 0, listen(fd, 128) == 0 else {
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
        let thread = Thread { [self] in acceptConnections() }
        thread.name = "demo server: accept"
        thread.start()
    }

    struct ListenFailure: Error {
        var reason: String
    }

    /// Stops accepting and closes every open connection. Answers being made are dropped.
    func stop() {
        let (connections, waiters) = state.withLock { state -> (Set<Int32>, [CheckedContinuation<Void, Never>]) in
            guard !state.stopped else { return ([], []) }
            state.stopped = true
            defer { state.waiters = [] }
            return (state.connections, state.waiters)
        }
        // Shutting a socket down wakes the thread blocked on it; that thread closes it.
        shutdown(socket, Int32(SHUT_RDWR))
        for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once `stop()` has been called.
    func waitUntilStopped() async {
        await withCheckedContinuation { continuation in
            let stopped = state.withLock { state in
                if !state.stopped { state.waiters.append(continuation) }
                return state.stopped
            }
            if stopped { continuation.resume() }
        }
    }

    // MARK: Connections

    private func acceptConnections() {
        while true {
            let connection = accept(socket, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                break
            }
            let accepted = state.withLock { state in
                if !state.stopped { state.connections.insert(connection) }
                return !state.stopped
            }
            guard accepted else {
                close(connection)
                break
            }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            var yes: Int32 = 1
            setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            // An idle keep-alive connection is closed after ten minutes.
            var idle = timeval(tv_sec: 600, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &idle, socklen_t(MemoryLayout<timeval>.size))
            let thread = Thread { [self] in serve(connection) }
            thread.name = "demo server: connection"
            thread.start()
        }
        close(socket)
    }

    /// Answers the requests on one connection in turn until the client closes it, asks to, or the server stops.
    private func serve(_ connection: Int32) {
        defer {
            state.withLock { _ = $0.connections.remove(connection) }
            close(connection)
        }
        var pending: [UInt8] = []
        while let (request, keepAlive) = readRequest(connection, pending: &pending) {
            let response = answer(request)
            guard write(response, to: connection) else { return }
            if response.breaksAfter != nil || !keepAlive { return }
        }
    }

    /// Runs the async handler for a thread that has nothing else to do while it waits.
    private func answer(_ request: Request) -> Response {
        let answer = Mutex<Response?>(nil)
        let done = DispatchSemaphore(value: 0)
        let handler = handler
        Task {
            let response = await handler(request)
            answer.withLock { $0 = response }
            done.signal()
        }
        done.wait()
        return answer.withLock { $0! }
    }

    /// Reads the next request's head (a GET has no body). Nil when the connection ends or sends something that is
    /// not an HTTP request; a malformed request is answered with 400 first.
    private func readRequest(_ connection: Int32, pending: inout [UInt8]) -> (Request, keepAlive: Bool)? {
        let end: Int
        while true {
            if let found = Self.endOfHead(in: pending) {
                end = found
                break
            }
            guard pending.count < 64 << 10 else { return nil }
            guard receive(from: connection, into: &pending) else { return nil }
            // A request starts with a method in capitals; anything else (a TLS hello to this plain-HTTP server)
            // is closed at once rather than waited on.
            guard let first = pending.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) else { return nil }
        }
        let head = String(decoding: pending[..<end], as: UTF8.self)
        pending.removeFirst(end + 4)
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[line[..<colon].lowercased()] = value
        }
        guard parts.count == 3, let components = URLComponents(string: String(parts[1])) else {
            _ = write(Response(status: 400, reason: "Bad Request", headers: [], body: Array("bad request\n".utf8)),
                      to: connection)
            return nil
        }
        // A body (which a GET should not have) is skipped.
        if let length = headers["content-length"].flatMap(Int.init), length > 0 {
            guard length <= 1 << 20, skip(length, on: connection, pending: &pending) else { return nil }
        }
        let request = Request(path: components.path,
                              query: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") },
                              host: headers["host"])
        let keepAlive = parts[2] == "HTTP/1.1" && headers["connection"]?.lowercased() != "close"
        return (request, keepAlive)
    }

    private func skip(_ count: Int, on connection: Int32, pending: inout [UInt8]) -> Bool {
        while pending.count < count {
            guard receive(from: connection, into: &pending) else { return false }
        }
        pending.removeFirst(count)
        return true
    }

    /// Appends what the connection has to `pending`, up to 16 KB; false when it is closed or failed.
    private func receive(from connection: Int32, into pending: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        pending.append(contentsOf: chunk[..<count])
        return true
    }

    private static func endOfHead(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4)
        where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// Writes the whole response (or the part before its break); false when the connection is gone.
    private func write(_ response: Response, to connection: Int32) -> Bool {
        var head = "HTTP/1.1 \(response.status) \(response.reason)\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\n\r\n"
        let body = response.body.prefix(response.breaksAfter ?? response.body.count)
        return send(Array(head.utf8), on: connection) && send(Array(body), on: connection)
    }

    private func send(_ bytes: [UInt8], on connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a client that has gone is an error here, not a SIGPIPE that ends the process.
            let sent = bytes.withUnsafeBytes {
                Glibc.send(connection, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
