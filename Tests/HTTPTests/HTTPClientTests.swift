import Foundation
import HTTP
import Synchronization
import TestSupport
import Testing

/// The libcurl client over real HTTP on 127.0.0.1. The limits, cancellation and failures an image load meets are
/// pinned down through `DataLoader` (PipelineTests); these are what the client itself promises its other callers.
@Suite struct HTTPClientTests {
    let client = HTTPClient()

    @Test func libcurlIsLoadedOnFirstUse() throws {
        let version = try HTTPClient.libraryVersion()
        #expect(version.hasPrefix("libcurl/"), "\(version)")
    }

    @Test func anErrorStatusIsAReplyWithItsBodyUnlessBodiesAreSkipped() async throws {
        try await TestHTTPServer.with { server in
            let page = Array(#"{"detail":"Not found"}"#.utf8)
            server.serve("/missing", TestHTTPServer.Reply(status: 404, headers: ["Content-Type": "application/json"],
                                                          body: page))
            let url = server.url("/missing")

            let kept = try await client.get(HTTPGet(url: url))
            #expect(kept.status == 404)
            #expect(kept.body == page)
            #expect(kept.header("content-type") == "application/json")

            let received = Mutex(0)
            let skipped = try await client.get(HTTPGet(url: url, skipsErrorBodies: true)) { count in
                received.withLock { $0 += count }
            }
            #expect(skipped.status == 404)
            #expect(skipped.body.isEmpty)
            #expect(received.withLock { $0 } == 0)
        }
    }

    @Test func theHeadersAreTheLastResponsesAfterRedirects() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/old", TestHTTPServer.Reply(status: 301, headers: ["Location": "/new", "X-Hop": "first"]))
            server.serve("/new", TestHTTPServer.Reply(headers: ["X-Final": "yes"], body: Array("here".utf8)))

            let reply = try await client.get(HTTPGet(url: server.url("/old")))

            #expect(reply.status == 200)
            #expect(reply.body == Array("here".utf8))
            #expect(reply.header("X-Final") == "yes")
            #expect(reply.header("X-Hop") == nil)
            #expect(server.requests.map(\.path) == ["/old", "/new"])
        }
    }

    @Test func requestHeadersAreSentAndOnesWithLineBreaksAreNot() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/h", .text("ok"))
            let headers = [(name: "Accept", value: "application/json"),
                           (name: "X-Evil", value: "a\r\nX-Injected: 1")]

            _ = try await client.get(HTTPGet(url: server.url("/h"), headers: headers))

            let request = try #require(server.requests(to: "/h").first)
            #expect(request.headers["accept"] == "application/json")
            #expect(request.headers["user-agent"] == "ThumbTable")
            #expect(request.headers["x-evil"] == nil)
            #expect(request.headers["x-injected"] == nil)
        }
    }

    // MARK: Hostile servers: each failure says what happened

    @Test func responseHeadersWithControlCharactersOrOverTheLimitsAreDropped() async throws {
        try await TestHTTPServer.with { server in
            var headers = ["ETag": "\"good\"", "X-Escape": "a\u{1B}]0;owned\u{07}b", "X-C1": "a\u{9B}2Jb",
                           "X-Long": String(repeating: "v", count: 9000), "A-Tab": "a\tb"]
            for i in 0..<150 { headers["X-Many-\(i)"] = "\(i)" }
            server.serve("/h", TestHTTPServer.Reply(status: 200, headers: headers, body: Array("ok".utf8)))
            let reply = try await client.get(HTTPGet(url: server.url("/h")))
            #expect(reply.status == 200 && reply.body == Array("ok".utf8))
            #expect(reply.header("etag") == "\"good\"")
            #expect(reply.header("a-tab") == "a\tb", "a tab is allowed in a value")
            #expect(reply.header("x-escape") == nil && reply.header("x-c1") == nil)
            #expect(reply.header("x-long") == nil)
            #expect(reply.headers.count <= 100)
        }
    }

    @Test func aRedirectToAnotherSchemeIsRefusedAndNamed() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/ftp", .redirect(to: "ftp://127.0.0.1/file"))
            server.serve("/passwd", .redirect(to: "file:///etc/passwd"))

            await #expect(throws: HTTPFailure.redirectRefused(location: "ftp://127.0.0.1/file", reason: .notHTTP)) {
                try await client.get(HTTPGet(url: server.url("/ftp")))
            }
            let error = await #expect(throws: HTTPFailure.self) {
                try await client.get(HTTPGet(url: server.url("/passwd")))
            }
            #expect(error == .redirectRefused(location: "file:///etc/passwd", reason: .notHTTP))
            #expect(error?.description == "redirected to file:///etc/passwd, which is not http or https; "
                + "the redirect was not followed")
        }
    }

    @Test func aRedirectToSomethingThatIsNotAURLIsRefused() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/bad", .redirect(to: "http://[::1"))

            await #expect(throws: HTTPFailure.redirectRefused(location: "http://[::1", reason: .malformed)) {
                try await client.get(HTTPGet(url: server.url("/bad")))
            }
        }
    }

    /// A failure after a redirect names where the redirect led, not the URL asked for: a TLS server that is none,
    /// a URL with no host.
    @Test func aFailureAfterARedirectNamesItsTarget() async throws {
        try await TestHTTPServer.with { server in
            let tls = "https://127.0.0.1:\(server.url("/").port!)/secure"
            server.serve("/tls", .redirect(to: tls))
            server.serve("/nohost", .redirect(to: "http:///x"))
            for (path, target) in [("/tls", tls), ("/nohost", "http:///x")] {
                let error = await #expect(throws: HTTPFailure.self) {
                    try await client.get(HTTPGet(url: server.url(path), timeout: .seconds(30)))
                }
                #expect(error?.description.contains(target) == true, "\(path): \(String(describing: error))")
            }
        }
    }

    /// Headers larger than libcurl keeps (a 1 MB header, a 200 KB Location) are said to be that, not "out of
    /// memory"; two Content-Length headers that disagree are named.
    @Test func oversizedHeadersAndTwoLengthsAreSaid() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/big", TestHTTPServer.Reply(status: 200, headers: ["X-Big": String(repeating: "b", count: 1 << 20)],
                                                      body: Array("ok".utf8)))
            server.serve("/far", TestHTTPServer.Reply(status: 302, headers: [
                "Location": "/" + String(repeating: "l", count: 200_000)]))
            for path in ["/big", "/far"] {
                let error = await #expect(throws: HTTPFailure.self) { try await client.get(HTTPGet(url: server.url(path))) }
                #expect(error?.description == "the server's headers are too large", "\(path): \(String(describing: error))")
            }
            server.serve("/two", TestHTTPServer.Reply(status: 200, headers: ["Content-Length": "2", "content-length": "5"],
                                                      body: Array("ok".utf8)))
            let error = await #expect(throws: HTTPFailure.self) { try await client.get(HTTPGet(url: server.url("/two"))) }
            #expect(error?.description.contains("two Content-Length headers") == true, "\(String(describing: error))")
        }
    }

    @Test func aRequestURLThatIsNotHTTPIsNotCalledARedirect() async throws {
        let error = await #expect(throws: HTTPFailure.self) {
            try await client.get(HTTPGet(url: URL(string: "ftp://127.0.0.1/file")!))
        }
        #expect(error == .unsupportedScheme("ftp"))
        #expect(error?.description.contains("redirect") == false, "\(String(describing: error))")
    }

    @Test func aServerThatNeverAnswersStallsBeforeTheResponse() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/never", .never)

            // The overall limit is far away: only the stall timeout can end it.
            let error = await #expect(throws: HTTPFailure.self) {
                try await client.get(HTTPGet(url: server.url("/never"), timeout: .seconds(120),
                                             stallTimeout: .milliseconds(300)))
            }
            #expect(error == .stalled(limit: .milliseconds(300), stage: .waitingForResponse))
            #expect(error?.description == "no answer for 0.3 s")
        }
    }

    @Test func aBodyThatStopsMidwayStallsAfterTheBytesItSent() async throws {
        try await TestHTTPServer.with { server in
            let body = [UInt8](repeating: 7, count: 10_000)
            server.serve("/half", TestHTTPServer.Reply.ok(body).stalled(after: 4_000))
            server.serve("/headers", TestHTTPServer.Reply.ok(body).stalled(after: 0))
            let received = Mutex(0)

            // 2 s: a busy machine sends the headers well within it, so the stall is seen at the stage it happens.
            let half = await #expect(throws: HTTPFailure.self) {
                try await client.get(HTTPGet(url: server.url("/half"), timeout: .seconds(120),
                                             stallTimeout: .seconds(2))) { n in received.withLock { $0 += n } }
            }
            #expect(half == .stalled(limit: .seconds(2), stage: .body(received: 4_000, expected: 10_000)))
            #expect(half?.description == "the response stalled after 4000 of 10000 bytes: nothing more for 2 s")
            #expect(received.withLock { $0 } == 4_000)

            let headersOnly = await #expect(throws: HTTPFailure.self) {
                try await client.get(HTTPGet(url: server.url("/headers"), timeout: .seconds(120),
                                             stallTimeout: .seconds(2)))
            }
            #expect(headersOnly == .stalled(limit: .seconds(2), stage: .body(received: 0, expected: 10_000)))
        }
    }

    @Test func aSlowBodyThatNeverStallsIsStoppedByTheOverallTimeoutWithItsProgress() async throws {
        try await TestHTTPServer.with { server in
            // A chunk every 50 ms: never silent for the 2 s stall limit, but 10 s in all.
            let body = [UInt8](repeating: 1, count: 20_000)
            server.serve("/trickle", TestHTTPServer.Reply.ok(body).paced(chunkSize: 100, interval: .milliseconds(50)))

            let error = await #expect(throws: HTTPFailure.self) {
                try await client.get(HTTPGet(url: server.url("/trickle"), timeout: .seconds(1),
                                             stallTimeout: .seconds(2)))
            }
            guard case .timedOut(let limit, .body(let received, let expected)) = error else {
                Issue.record("expected a timeout mid-body, got \(String(describing: error))")
                return
            }
            #expect(limit == .seconds(1))
            #expect(expected == 20_000)
            #expect(received > 0 && received < 20_000)
            #expect(error?.description
                == "the response was still arriving after 1 s: stopped after \(received) of 20000 bytes")
        }
    }

    @Test func aConnectionDroppedMidBodySaysHowFarItGot() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/cut", TestHTTPServer.Reply.ok([UInt8](repeating: 3, count: 10_000)).dropped(after: 2_500))

            let error = await #expect(throws: HTTPFailure.self) {
                try await client.get(HTTPGet(url: server.url("/cut")))
            }
            guard case .broken(.body(2_500, 10_000), _) = error else {
                Issue.record("expected a break after 2500 of 10000 bytes, got \(String(describing: error))")
                return
            }
            #expect(error?.description.hasPrefix(
                "the connection broke before the whole response arrived, after 2500 of 10000 bytes") == true)
        }
    }

    @Test func cancellingAStalledRequestEndsItAtOnce() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/never", .never)
            let client = client
            let url = server.url("/never")
            let request = Task { try await client.get(HTTPGet(url: url, timeout: .seconds(120))) }
            #expect(await server.waitForRequests(to: "/never"))

            let cancelled = ContinuousClock.now
            request.cancel()
            await #expect(throws: CancellationError.self) { try await request.value }
            // A figure for the record, not a pass mark: the transfer is removed on the client's own thread.
            print("HTTPClientTests: cancel to CancellationError took \(ContinuousClock.now - cancelled)")
        }
    }
}

/// Hostile servers below HTTP, which the test server cannot play: each connection gets `answer` (raw
/// bytes, no HTTP framing unless given) after the request's headers, and is closed.
@Suite struct RawServerTests {
    let client = HTTPClient()

    @Test func aServerThatClosesWithoutAnsweringSaysSo() async throws {
        let server = try RawTCPServer(answer: [])
        defer { server.stop() }
        let error = await #expect(throws: HTTPFailure.self) {
            try await client.get(HTTPGet(url: server.url))
        }
        #expect(error == .broken(stage: .waitingForResponse, detail: ""))
        #expect(error?.description == "the server closed the connection without answering")
    }

    @Test func anAnswerThatIsNotHTTPIsABadResponseNotACannotConnect() async throws {
        let server = try RawTCPServer(answer: Array("SSH-2.0-OpenSSH_9.2\r\nnot http at all\r\n\r\n".utf8))
        defer { server.stop() }
        let error = await #expect(throws: HTTPFailure.self) {
            try await client.get(HTTPGet(url: server.url))
        }
        #expect(error == .badResponse("the server's answer is not HTTP (Received HTTP/0.9 when not allowed)"))
    }
}

/// A TCP listener on 127.0.0.1 that answers every connection with fixed bytes and closes it, on its own thread.
final class RawTCPServer: @unchecked Sendable {
    let url: URL
    private let listener: Int32

    init(answer: [UInt8]) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 8) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else { throw RawServerError(errno: errno) }
        self.listener = listener
        url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/x")!
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                // Reads the request's headers (a GET has no body), then answers and closes.
                var request: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !request.ends(with: Array("\r\n\r\n".utf8)) {
                    let n = read(connection, &buffer, buffer.count)
                    guard n > 0 else { break }
                    request += buffer[..<n]
                }
                _ = answer.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                close(connection)
            }
        }
    }

    /// Closes the listener, which ends the accepting thread.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}

struct RawServerError: Error {
    var errno: Int32
}

extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
