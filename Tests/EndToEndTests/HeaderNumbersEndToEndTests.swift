import Foundation
import Testing
import TestSupport

/// Numbers a user can find (issue 26, item 6), in the built binary: the header says the position and the rows loaded
/// plainly (`1 / 14`, `1 / 6 matching · 14 loaded`, `item 13 / 14`), and a note about an item on a later page names
/// it by that same row number, not by its place in its page.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct HeaderNumbersEndToEndTests {
    /// A JSON API of two pages of seven things; the sixth of the second page (row 13) links to a local file.
    static func twoPageServer() async throws -> TestHTTPServer {
        let server = try await TestHTTPServer.start()
        func things(_ numbers: ClosedRange<Int>) -> String {
            numbers.map { number in
                let image = number == 13 ? "file:///etc/passwd" : "/img/\(number).png"
                return #"{"name": "thing \#(number)", "image": "\#(image)"}"#
            }.joined(separator: ", ")
        }
        server.serve("/page1", .text(#"{"items": [\#(things(1...7))], "next": "/page2"}"#))
        server.serve("/page2", .text(#"{"items": [\#(things(8...14))]}"#))
        return server
    }

    /// The header line without the blank cells at its end.
    static func header(_ lines: [String]) -> String {
        (lines.first ?? "").trimmingCharacters(in: .whitespaces)
    }

    @Test func aNoteOnTheSecondPageNamesTheRowTheHeaderCounts() async throws {
        let server = try await Self.twoPageServer()
        let tmux = try TmuxSession(["browse", server.url("/page1").absoluteString, "--items", "items",
                                    "--title", "name", "--image", "image", "--next", "next", "--no-disk-cache"],
                                   columns: 200, rows: 40)
        defer { tmux.close() }
        var lines = try await tmux.waitFor(text: "row 13: \"file:///etc/passwd\" was refused")
        #expect(!lines.joined().contains("item 6"), "the note does not number the item within its page")
        lines = try await tmux.waitFor("both pages in the header") { Self.header($0).hasSuffix(" 1 / 14") }
        for _ in 1...12 { try tmux.send("j") }
        try await tmux.waitFor("row 13 selected") { Self.header($0).hasSuffix(" 13 / 14") }
        try tmux.send("Enter")
        lines = try await tmux.waitFor("row 13's detail pane") { Self.header($0).hasSuffix(" item 13 / 14") }
        #expect(lines.contains { $0.contains("thing 13") } && lines.contains { $0.contains("Link refused") },
                "the row the note named is the one with the refused link")
        try tmux.send("Escape")
        try await tmux.waitFor("the list again") { Self.header($0).hasSuffix(" 13 / 14") }
        try tmux.send("/")
        try tmux.type("thing 1")
        try tmux.send("Enter")
        // thing 1 and things 10 to 14 match.
        try await tmux.waitFor("the filter's count") { Self.header($0).contains(/\ \d \/ 6 matching · 14 loaded$/) }
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }
}
