@testable import DemoServer
import Foundation
import HTTP
import Testing

/// The demo server's own HTTP/1.1 listener, through the app's HTTP client.
@Suite struct HTTPListenerTests {
    @Test func answersInTurnDecodesThePathAndBreaksABodyWhenAsked() async throws {
        let listener = try HTTPListener(port: 0) { request in
            let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
            return HTTPListener.Response(status: 200, reason: "OK",
                                         headers: [("X-Path", request.path), ("X-Query", query)],
                                         body: Array(repeating: 7, count: 1000),
                                         breaksAfter: request.path == "/break" ? 100 : nil)
        }
        defer { listener.stop() }
        let client = HTTPClient()
        let base = "http://127.0.0.1:\(listener.port)"

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
        let listener = try HTTPListener(port: 0) { _ in
            HTTPListener.Response(status: 204, reason: "No Content", headers: [], body: [], breaksAfter: nil)
        }
        defer { listener.stop() }
        // A TLS hello is not an HTTP request: it ends in a TLS failure, not in the 15 s time limit.
        let error = await #expect(throws: HTTPFailure.self) {
            try await HTTPClient().get(HTTPGet(url: URL(string: "https://127.0.0.1:\(listener.port)/")!,
                                               timeout: .seconds(15)))
        }
        #expect(error?.description.contains("TLS") == true, "\(String(describing: error))")
    }

    @Test func stoppingEndsTheWait() async throws {
        let listener = try HTTPListener(port: 0) { _ in
            HTTPListener.Response(status: 204, reason: "No Content", headers: [], body: [], breaksAfter: nil)
        }
        async let waited: Void = listener.waitUntilStopped()
        listener.stop()
        await waited
    }
}
