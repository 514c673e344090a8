import DemoServer
import Foundation
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
}
