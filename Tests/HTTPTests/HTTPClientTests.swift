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

    @Test func aRedirectToAnotherSchemeIsNotFollowed() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/ftp", .redirect(to: "ftp://127.0.0.1/file"))

            await #expect(throws: HTTPFailure.connection("redirected to a URL that is not http or https")) {
                try await client.get(HTTPGet(url: server.url("/ftp")))
            }
        }
    }
}
