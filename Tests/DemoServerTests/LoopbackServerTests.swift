import DemoServer
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTP
import Testing

/// The loopback server the demo and the tests' servers run on, through the app's HTTP client.
@Suite struct LoopbackServerTests {
    let client = HTTPClient()

    @Test func answersInTurnDecodesThePathAndDropsABodyWhenAsked() async throws {
        let server = try LoopbackServer { request in
            let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
            return LoopbackServer.Response(status: 200, headers: ["X-Path": request.path, "X-Query": query],
                                           body: Array(repeating: 7, count: 1000),
                                           dropAfter: request.path == "/break" ? 100 : nil)
        }
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"

        for _ in 0..<2 {
            let reply = try await client.get(HTTPGet(url: URL(string: base + "/a%20b?q=Wookie%20star&n=1")!))
            #expect(reply.status == 200)
            #expect(reply.header("X-Path") == "/a b")
            #expect(reply.header("X-Query") == "q=Wookie star,n=1")
            #expect(reply.body == Array(repeating: 7, count: 1000))
        }
        let error = await #expect(throws: HTTPFailure.self) {
            try await client.get(HTTPGet(url: URL(string: base + "/break")!))
        }
        #expect(error?.description.hasPrefix("the connection broke before the whole response arrived") == true,
                "\(String(describing: error))")
    }

    @Test func somethingThatIsNotHTTPIsClosedAtOnce() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.Response(status: 204) }
        defer { server.stop() }
        // A TLS hello is not an HTTP request: it ends in a TLS failure, not in the 15 s time limit.
        let error = await #expect(throws: HTTPFailure.self) {
            try await client.get(HTTPGet(url: URL(string: "https://127.0.0.1:\(server.port)/")!, timeout: .seconds(15)))
        }
        #expect(error?.description.contains("TLS") == true, "\(String(describing: error))")
    }

    @Test func eachSendSaysHowItEnded() async throws {
        let (outcomes, told) = AsyncStream.makeStream(of: (path: String, outcome: LoopbackServer.Outcome).self)
        let server = try LoopbackServer { request in
            let path = request.path
            return LoopbackServer.Response(
                status: 200, body: Array(repeating: 1, count: 4_000),
                pacing: path == "/slow" ? .init(chunkSize: 10, interval: .milliseconds(20)) : nil,
                dropAfter: path == "/cut" ? 1_000 : nil, chunked: path == "/chunked",
                stallAfter: path == "/stall" ? 500 : nil,
                ended: { outcome in told.yield((path, outcome)) })
        }
        defer { server.stop() }
        func get(_ path: String, timeout: Duration = .seconds(20)) async throws -> HTTPReply {
            try await client.get(HTTPGet(url: URL(string: "http://127.0.0.1:\(server.port)\(path)")!,
                                         timeout: timeout))
        }
        #expect(try await get("/whole").body.count == 4_000)
        #expect(try await get("/chunked").body.count == 4_000)
        await #expect(throws: HTTPFailure.self) { try await get("/cut") }
        // 400 chunks 20 ms apart (8 s): the client gives up after 0.3 s, and the server's next write fails. (With
        // 40 chunks, a loaded machine once let the client's timeout fire late enough for the answer to finish.)
        await #expect(throws: HTTPFailure.self) { try await get("/slow", timeout: .milliseconds(300)) }
        await #expect(throws: HTTPFailure.self) { try await get("/stall", timeout: .milliseconds(300)) }

        let expected: [String: LoopbackServer.Outcome] = [
            "/whole": .completed, "/chunked": .completed, "/cut": .droppedByServer, "/slow": .closedByClient,
            "/stall": .closedByClient,
        ]
        // The last two are told on the server's threads once they see the client gone.
        var seen: [String: LoopbackServer.Outcome] = [:]
        for await (path, outcome) in outcomes.prefix(expected.count) { seen[path] = outcome }
        #expect(seen == expected)
    }

    @Test func stoppingEndsTheWaitAndAnswersThatWereWaiting() async throws {
        let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
        let server = try LoopbackServer { _ in
            arrived.yield()
            return LoopbackServer.Response(status: 204, delay: .seconds(86_400))
        }
        let url = URL(string: "http://127.0.0.1:\(server.port)/never")!
        let client = client
        let request = Task { try await client.get(HTTPGet(url: url, timeout: .seconds(60))) }
        async let waited: Void = server.waitUntilStopped()
        for await _ in arrivals.prefix(1) {}
        server.stop()
        await waited
        // The day-long delay is cancelled and the connection closed: the client hears at once, not in 60 s.
        let failure = await #expect(throws: HTTPFailure.self) { try await request.value }
        #expect(failure?.description.contains("60 s") == false, "\(String(describing: failure))")
    }

    /// A raw connection to the server that sends `bytes` and nothing more.
    static func connect(to port: UInt16, sending bytes: String) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(fd >= 0 && connected == 0, "connect: \(String(cString: strerror(errno)))")
        let sent = Array(bytes.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        try #require(sent == bytes.utf8.count)
        return fd
    }

    /// How many of `fds` the server closed: waits (a minute in all at most, far beyond any deadline the tests set)
    /// for the end of each one's stream.
    static func closedByServer(_ fds: [Int32]) -> Int {
        let end = ContinuousClock.now + .seconds(60)
        var open = fds
        while !open.isEmpty {
            var watches = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let left = end - ContinuousClock.now
            guard left > .zero else { break }
            let ready = poll(&watches, nfds_t(watches.count), Int32(left.components.seconds * 1000 + 1))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            open = zip(open, watches).compactMap { fd, watch in
                guard watch.revents != 0 else { return fd }
                var byte: UInt8 = 0
                return recv(fd, &byte, 1, 0) <= 0 ? nil : fd
            }
        }
        return fds.count - open.count
    }

    /// 40 connections that never finish a request, against a limit of 8: each new one closes the oldest waiting,
    /// so the server holds 8, and a real request is still answered at once.
    @Test func idleConnectionsBeyondTheLimitCloseTheOldest() async throws {
        let server = try LoopbackServer(maxConnections: 8, headDeadline: .seconds(600)) { _ in
            LoopbackServer.Response(status: 200, body: Array("ok".utf8))
        }
        defer { server.stop() }
        let idle = try (0..<40).map { _ in try Self.connect(to: server.port, sending: "GET / HTTP/1.1\r\nX-A: ") }
        defer { idle.forEach { close($0) } }
        let reply = try await client.get(HTTPGet(url: URL(string: "http://127.0.0.1:\(server.port)/")!))
        #expect(reply.status == 200 && reply.body == Array("ok".utf8))
        #expect(Self.closedByServer(Array(idle.prefix(32))) == 32, "the 32 oldest are closed to make room")
    }

    /// A request head that does not arrive within the deadline (10 s by default) ends its connection: one sent a
    /// byte at a time, and a connection that sends nothing.
    @Test func aHeadThatDoesNotArriveInTimeEndsTheConnection() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.Response(status: 204) }
        defer { server.stop() }
        let partial = try Self.connect(to: server.port, sending: "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
        let silent = try Self.connect(to: server.port, sending: "")
        defer { close(partial); close(silent) }
        #expect(Self.closedByServer([partial]) == 1, "a head still unfinished after the deadline")
        #expect(Self.closedByServer([silent]) == 1, "a connection that never sent a request")
    }
}
