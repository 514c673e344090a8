import Foundation
import TestSupport
import Testing

/// The built binary in tmux against a real HTTP server on 127.0.0.1: a missing image is asked for once however often
/// its row scrolls back (and again on `r`), and a lowered memory limit sheds the caches while the screen keeps its
/// thumbnails.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct CacheEndToEndTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized
    static let rows = 40
    /// The row whose image is a 404.
    static let missingRow = 1

    /// One page of rows "Row N" with `/img/N.png`, each the chelsea photo but the missing row's, a 404.
    func serveCatalog(on server: TestHTTPServer) throws {
        let results = (0..<Self.rows).map { row -> [String: Any] in
            ["name": row == Self.missingRow ? "Missing picture" : "Row \(row)", "image": "/img/\(row).png"]
        }
        let body = try JSONSerialization.data(withJSONObject: ["results": results])
        server.serve("/api", .ok([UInt8](body), contentType: "application/json"))
        let photo = try [UInt8](Data(contentsOf: Self.photos.appendingPathComponent("chelsea.png")))
        for row in 0..<Self.rows where row != Self.missingRow {
            server.serve("/img/\(row).png", .ok(photo, contentType: "image/png"))
        }
        server.serve("/img/\(Self.missingRow).png", .status(404))
    }

    func scratch() throws -> URL {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tt-cache-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return scratch
    }

    func browse(_ server: TestHTTPServer, scratch: URL, _ extra: [String] = []) throws -> TmuxSession {
        try TmuxSession([
            "browse", server.url("/api").absoluteString, "--items", "results", "--title", "name", "--image", "image",
            "--mode", "ascii", "--color", "none", "--thumb-size", "12x5",
            "--cache-dir", scratch.appendingPathComponent("cache").path,
            "--stats-file", scratch.appendingPathComponent("stats.json").path,
        ] + extra)
    }

    func stats(in scratch: URL) throws -> [String: Int] {
        let data = try Data(contentsOf: scratch.appendingPathComponent("stats.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Int])
    }

    @Test func theCacheDeletesOnlyWhatItWrote() async throws {
        let scratch = try scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cache = scratch.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        // A user's files in the folder, older than anything the cache writes: the first a sweep would take.
        let notes = cache.appendingPathComponent("notes.entry"), thesis = cache.appendingPathComponent("thesis.entry")
        try Data("my notes\n".utf8).write(to: notes)
        try Data(repeating: 0x54, count: 3 << 20).write(to: thesis)
        for file in [notes, thesis] {
            try FileManager.default.setAttributes([.modificationDate: Date() - 86_400], ofItemAtPath: file.path)
        }
        try await TestHTTPServer.with { server in
            try serveCatalog(on: server)
            // A 1 MB limit, passed by the thesis alone: storing the first pictures must not sweep it.
            let run = try await PipedRun.run([
                "browse", server.url("/api").absoluteString, "--items", "results", "--title", "name",
                "--image", "image", "--print", "--print-size", "80x24", "--color", "none",
                "--cache-dir", cache.path, "--disk-cache-mb", "1",
            ])
            #expect(run.status == 0, "\(run.stderrText)")
        }
        #expect(try Data(contentsOf: thesis).count == 3 << 20, "the thesis is not swept")

        let stats = try BinaryRun.run(["cache", "stats", "--cache-dir", cache.path])
        #expect(stats.stdoutText.contains("other:   2 files (3.0 MB) that are not the cache's, left alone"),
                "\(stats.stdoutText)")
        #expect(!stats.stdoutText.contains("entries: 0"), "the pictures were kept: \(stats.stdoutText)")

        let clear = try BinaryRun.run(["cache", "clear", "--cache-dir", cache.path])
        #expect(clear.status == 0, "\(clear.stderrText)")
        #expect(clear.stdoutText.contains("; left 2 files (3.0 MB) that are not the cache's"), "\(clear.stdoutText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).sorted() == ["notes.entry",
                                                                                              "thesis.entry"])
        #expect(try Data(contentsOf: notes) == Data("my notes\n".utf8))
    }

    @Test func aMissingImageIsRequestedOnceAcrossScrollingAndAgainOnR() async throws {
        let scratch = try scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try await TestHTTPServer.with { server in
            try serveCatalog(on: server)
            let missing = "/img/\(Self.missingRow).png"
            let tmux = try browse(server, scratch: scratch)
            defer { tmux.close() }
            try await tmux.waitFor(text: "failed")
            #expect(server.requests(to: missing).count == 1)

            // Far away, a screen at a time, so that every slot (the screen's rows and a margin of 4) is reused for
            // other rows, the missing row's included; then back.
            try tmux.send("End")
            try await tmux.waitFor(text: "Row \(Self.rows - 1)")
            for _ in 0..<3 {
                let before = try tmux.screen()
                try tmux.send("PageUp")
                try await tmux.waitFor("another screen of rows") { $0 != before && !$0.joined().contains("Missing") }
            }
            try tmux.send("Home")
            try await tmux.waitFor("the missing row back, failed") { lines in
                lines.contains { $0.contains("Missing picture") } && lines.contains { $0.contains("failed") }
            }
            #expect(server.requests(to: missing).count == 1, "not asked again on scrolling back")

            // `r` on the row asks again.
            try tmux.send("j")
            try tmux.send("r")
            #expect(await server.waitForRequests(to: missing, count: 2, timeout: EndToEnd.deadline))
            try await tmux.waitFor(text: "failed")
            try tmux.send("q")
            #expect(try await tmux.exitStatus() == 0)
            #expect(server.requests(to: missing).count == 2)
            #expect(try stats(in: scratch)["failures_remembered", default: 0] >= 1)
        }
    }

    @Test func aLoweredMemoryLimitPurgesTheCachesAndTheScreenKeepsItsThumbnails() async throws {
        let scratch = try scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try await TestHTTPServer.with { server in
            try serveCatalog(on: server)
            // 1 MB: below what any process uses, so every look at memory finds pressure.
            let tmux = try browse(server, scratch: scratch, ["--memory-limit", "1"])
            defer { tmux.close() }
            var previous: [String] = []
            let settled = try await tmux.waitFor("thumbnails settled") { lines in
                defer { previous = lines }
                let spinning = lines.joined().unicodeScalars.contains { DemoEndToEndTests.spinner.contains($0) }
                return lines == previous && !spinning && lines.contains { $0.contains("Row 0") }
            }
            // The overlay's counters show the purges (a key press redraws the screen with the counters of now).
            try tmux.send("s")
            try await tmux.waitFor("a memory purge counted") { lines in
                try? tmux.send("s")
                try? tmux.send("s")
                let text = lines.joined(separator: " ")
                return text.range(of: #"memory purges [1-9]"#, options: .regularExpression) != nil
            }
            // Closed, the list (all but the header and status lines) is drawn as before the purges: no thumbnail
            // lost. The wait is for that screen, as a capture can catch a frame half drawn; if it never comes, the
            // issue shows the screen there was instead.
            try tmux.send("s")
            try await tmux.waitFor("the overlay closed and the list as it was before the purges") { lines in
                !lines.joined().contains("memory purges")
                    && Array(lines.dropFirst().dropLast(2)) == Array(settled.dropFirst().dropLast(2))
            }
            try tmux.send("q")
            #expect(try await tmux.exitStatus() == 0)
            #expect(try stats(in: scratch)["memory_purges", default: 0] > 0)
        }
    }
}
