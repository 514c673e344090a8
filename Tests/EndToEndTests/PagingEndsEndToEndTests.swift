import Foundation
import TestSupport
import Testing

/// The built binary's `--print` against servers whose paging never ends by itself: it ends at once, with the reason
/// on stderr, instead of asking for pages until its timeout.
@Suite struct PagingEndsEndToEndTests {
    func browse(_ server: TestHTTPServer, query: String = "") -> [String] {
        ["browse", server.url("/api").absoluteString + query, "--items", "results", "--title", "name", "--next", "next",
         "--print", "--print-size", "80x24", "--color", "none", "--no-disk-cache"]
    }

    /// A page of `rows` rows (none for 0) whose `next` link is `next`.
    static func page(rows: Int, first: Int = 0, next: String) -> TestHTTPServer.Reply {
        let results = (first..<first + rows).map { ["name": "Row \($0)"] }
        let body = try! JSONSerialization.data(withJSONObject: ["results": results, "next": next])
        return .ok([UInt8](body), contentType: "application/json")
    }

    @Test func emptyPagesWithANextLinkEndThePrintAtOnceWithANote() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/api") { request in
                let page = Int(request.query["page"] ?? "1") ?? 1
                return Self.page(rows: 0, next: "/api?page=\(page + 1)")
            }
            let run = try await PipedRun.run(browse(server))
            #expect(run.status == 1, "no row came: \(run.stderrText)")
            #expect(run.stderrText.contains("note: paging stopped: 5 empty pages in a row"), "\(run.stderrText)")
            #expect(!run.stderrText.contains("--print-timeout"), "the print did not wait out its timeout")
            #expect(server.requests(to: "/api").count == 5)
            #expect(PrintEndToEndTests.visibleLines(run.stdoutText).joined().contains("paging stopped"))
        }
    }

    @Test(arguments: ["/api?page=1", "/api?page=1#top", "/API/../api?page=%31", "./api?page=1&"])
    func aPageWhoseNextIsItselfPrintsItsRowsAndEnds(_ next: String) async throws {
        try await TestHTTPServer.with { server in
            server.serve("/api", Self.page(rows: 3, next: next))
            let run = try await PipedRun.run(browse(server, query: "?page=1"))
            #expect(run.status == 0, "\(run.stderrText)")
            #expect(run.stderrText.contains("note: the list stops here: its next page"), "\(run.stderrText)")
            #expect(run.stderrText.contains("was loaded already"))
            let screen = PrintEndToEndTests.visibleLines(run.stdoutText).joined(separator: "\n")
            #expect(screen.contains("Row 2"), "\(screen)")
            #expect(server.requests(to: "/api").count == 1)
        }
    }
}
