import Foundation
import Testing

/// The clients in a real terminal (tmux) against `thumbtable serve-demo` running in another tmux session, and a
/// folder of pictures.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct SourcesEndToEndTests {
    /// Starts `thumbtable serve-demo` on a free port, without latency, and reads its address off its screen.
    func serveDemo() async throws -> (session: TmuxSession, base: String) {
        let session = try TmuxSession(["serve-demo", "--port", "0", "--latency", "0", "--jitter", "0",
                                       "--page-delay", "0"], columns: 160)
        let lines = try await session.waitFor(text: "ThumbTable demo server on http://127.0.0.1:")
        let line = try #require(lines.first { $0.contains("demo server on") })
        let range = try #require(line.range(of: #"http://127\.0\.0\.1:\d+"#, options: .regularExpression))
        return (session, String(line[range]))
    }

    @Test func swapiAgainstServeDemoReachesThe37thSpeciesWithEnd() async throws {
        let (server, base) = try await serveDemo()
        defer { server.close() }
        let tmux = try TmuxSession(["swapi", "--base-url", base + "/api/", "--image-search-url", base + "/ia/",
                                    "--no-disk-cache"])
        defer { tmux.close() }
        let first = try await tmux.waitFor(text: " 1 / 10")
        #expect(first[0].contains("SWAPI species"))
        try await tmux.waitFor(text: "Image from https://scikit-image.org scikit-image sample data")
        #expect(try tmux.screen().contains { $0.contains("All images from DuckDuckGo Instant Answers API") })
        // End goes to the last row loaded; near the end the next page loads, so End again until the list ends.
        var lines = first
        var presses = 0
        while !lines.joined().contains("end of the list: 37 items") && presses < 20 {
            try tmux.send("End")
            presses += 1
            let before = lines[0]
            lines = try await tmux.waitFor("the list to grow or end") {
                $0[0] != before || $0.joined().contains("end of the list")
            }
        }
        try tmux.send("End")
        lines = try await tmux.waitFor(text: " 37 / 37")
        #expect(lines.contains { $0.contains("Pau'an") }, "the 37th species is on screen")
        #expect(lines.contains { $0.contains("end of the list: 37 items") })
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func photosShowsTheFirstPhotosTitleAndItsPlaceholderInTheDetailPane() async throws {
        let (server, base) = try await serveDemo()
        defer { server.close() }
        let tmux = try TmuxSession(["photos", "--base-url", base + "/", "--no-disk-cache"], columns: 140)
        defer { tmux.close() }
        let lines = try await tmux.waitFor(text: "accusamus beatae ad facilis cum similique qui sunt")
        #expect(lines[0].contains(" 1 / 20"))
        #expect(lines.contains { $0.contains("photo 1 · album 1") })
        try tmux.send("Enter")
        let detail = try await tmux.waitFor(text: "Image state: loaded")
        #expect(detail.contains { $0.contains("\(base)/placeholder/600/92c952/1") }, "the detail pane shows url")
        #expect(detail.contains { $0.contains("\(base)/placeholder/150/92c952/1") })
    }

    @Test func browseAFolderShowsItsImagesAndTheirDetails() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-browse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("more"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, target) in [("coffee.png", "coffee.png"), ("rocket.jpg", "rocket.jpg"), ("more/horse.png", "horse.png")] {
            try FileManager.default.copyItem(at: PipelineEndToEndTests.photos.appendingPathComponent(target),
                                            to: folder.appendingPathComponent(name))
        }
        let tmux = try TmuxSession(["browse", folder.path, "--no-disk-cache"])
        defer { tmux.close() }
        let lines = try await tmux.waitFor(text: "end of the list: 2 items")
        #expect(lines.contains { $0.contains("coffee.png") } && lines.contains { $0.contains("rocket.jpg") })
        #expect(lines.contains { $0.contains("PNG · 600x400 · 455.8 KB") })
        try tmux.send("Enter")
        let detail = try await tmux.waitFor(text: "Pixel dimensions: 600 x 400")
        #expect(detail.contains { $0.contains("Format: PNG") })
        #expect(detail.contains { $0.contains("Size: 455.8 KB") })
        #expect(detail.contains { $0.contains("Modified: ") })
        try tmux.send("q", "q")
        #expect(try await tmux.exitStatus() == 0)

        let recursive = try TmuxSession(["browse", folder.path, "--recursive", "--no-disk-cache"])
        defer { recursive.close() }
        try await recursive.waitFor(text: "more/horse.png")
    }

    @Test func badArgumentsSayWhatIsWrong() throws {
        let binary = try TmuxSession.binary()
        let (status, output) = try TmuxSession.run([binary, "browse", "/nonexistent/folder"])
        #expect(status != 0)
        #expect(output.contains("browse needs an http(s) URL or a folder; '/nonexistent/folder' is neither"))
        let (urlStatus, urlOutput) = try TmuxSession.run([binary, "browse", "http://127.0.0.1:9/x"])
        #expect(urlStatus != 0)
        #expect(urlOutput.contains("browse URL needs --title KEYPATH"))
        let (swapiStatus, swapiOutput) = try TmuxSession.run([binary, "swapi", "--base-url", "ftp://x"])
        #expect(swapiStatus != 0)
        #expect(swapiOutput.contains("--base-url needs an http(s) URL, got 'ftp://x'"))
    }
}
