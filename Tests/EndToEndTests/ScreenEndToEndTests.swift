import Foundation
import TestSupport
import Testing

/// What a new user met on a small screen and on a failed page, in a real terminal: the help scrolls, a failed page
/// shows its whole reason on Enter, the retry hint shows once.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct ScreenEndToEndTests {
    @Test func atSixtyByFifteenTheHelpScrollsAndSaysSo() async throws {
        let tmux = try TmuxSession(DemoEndToEndTests.fastDemo, columns: 60, rows: 15)
        defer { tmux.close() }
        try await tmux.waitFor(text: " 1 / ")
        try tmux.send("?")
        let top = try await tmux.waitFor(text: "j/k PgDn scroll")
        #expect(top.contains { $0.contains("lines 1-") })
        #expect(!top.contains { $0.contains("Ctrl-C") }, "the last line is below the box")
        try tmux.send("G")
        let bottom = try await tmux.waitFor(text: "q  Ctrl-C")
        #expect(bottom.contains { $0.contains("suspend to the shell") })
        #expect(!bottom.contains { $0.contains("move one row") })
        try tmux.send("x")
        try await tmux.waitFor("the help closed") { !$0.joined().contains("j/k PgDn scroll") }
    }

    @Test func aFailedPageShowsItsWholeReasonOnEnterAndTheRetryHintOnce() async throws {
        try await TestHTTPServer.with { server in
            let detail = "the upstream database is being migrated, come back later"
            server.serve("/page.json", .init(status: 503, body: Array(detail.utf8)))
            let tmux = try TmuxSession(["browse", server.url("/page.json").absoluteString, "--title", "title"],
                                       columns: 80, rows: 20)
            defer { tmux.close() }
            let list = try await tmux.waitFor(text: "Could not load the list")
            let row = try #require(list.first { $0.contains("Could not load the list") })
            #expect(row.trimmingCharacters(in: .whitespaces).hasSuffix("…"), "one line, cut: \(row)")
            #expect(!list.joined().contains("Press r"))
            #expect(list.joined(separator: "\n").components(separatedBy: "retr").count - 1 == 1,
                    "the retry hint once:\n\(list.joined(separator: "\n"))")
            try tmux.send("Enter")
            // The pane's whole text is waited for, not its header alone: curses draws top down, and a capture
            // taken meanwhile showed the new header over the list's old rows.
            func joined(_ pane: [String]) -> String {
                pane.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            }
            // If it never shows, the wait's issue shows the screen there was.
            try await tmux.waitFor("the failure's pane: the status, the server's whole reason, the retry hint") { pane in
                let text = joined(pane)
                return pane[0].contains("page failed") && text.contains("answered HTTP 503") && text.contains(detail)
                    && text.contains("r or Enter retries")
            }
            try tmux.send("Escape")
            try await tmux.waitFor("the list again") { $0[0].contains("no rows") }
        }
    }
}
