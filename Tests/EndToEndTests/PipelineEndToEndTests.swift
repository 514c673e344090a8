import Foundation
import TestSupport
import Testing

/// The built binary in tmux against a real HTTP server on 127.0.0.1 with 0-600 ms random latency: scrolled fast,
/// every row left on screen shows its own thumbnail, and the stats file says no wrong image was ever painted.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct PipelineEndToEndTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized
    static let photoNames = ["astronaut.png", "camera.png", "chelsea.png", "coffee.png", "coins.png", "horse.png",
                             "hubble_deep_field.jpg", "rocket.jpg"]
    static let rows = 60, pageSize = 20

    func photo(forRow row: Int) -> URL {
        Self.photos.appendingPathComponent(Self.photoNames[row % Self.photoNames.count])
    }

    /// Serves `/api/N` pages of `{"results": [{"name", "image"}], "next"}` and `/img/K.png` as the row's photo.
    func serveCatalog(on server: TestHTTPServer) throws {
        for page in 0..<(Self.rows / Self.pageSize) {
            let results = (0..<Self.pageSize).map { i -> [String: Any] in
                let row = page * Self.pageSize + i
                return ["name": "Row \(row)", "image": "/img/\(row).png"]
            }
            let next: Any = page + 1 < Self.rows / Self.pageSize ? "/api/\(page + 1)" : NSNull()
            let body = try JSONSerialization.data(withJSONObject: ["results": results, "next": next])
            server.serve("/api/\(page)", .ok([UInt8](body), contentType: "application/json"))
        }
        for row in 0..<Self.rows {
            server.serve("/img/\(row).png", .ok(try [UInt8](Data(contentsOf: photo(forRow: row)))))
        }
    }

    /// What `thumbtable render` prints for a photo at the thumbnail size.
    func rendered(_ photo: URL) throws -> [String] {
        let (status, output) = try TmuxSession.run([try TmuxSession.binary(), "render", photo.path, "--size", "12x5",
                                                    "--mode", "ascii", "--color", "none"])
        #expect(status == 0)
        return output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    @Test func fastScrollingUnderRandomLatencyNeverLeavesAWrongThumbnail() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tt-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let statsFile = scratch.appendingPathComponent("stats.json").path
        try await TestHTTPServer.with(latency: .zero ... .milliseconds(600), seed: 7) { server in
            try serveCatalog(on: server)
            let tmux = try TmuxSession([
                "browse", server.url("/api/0").absoluteString, "--items", "results", "--title", "name",
                "--image", "image", "--next", "next", "--mode", "ascii", "--color", "none", "--thumb-size", "12x5",
                "--cache-dir", scratch.appendingPathComponent("cache").path, "--stats-file", statsFile,
            ])
            defer { tmux.close() }
            try await tmux.waitFor(text: "Row 0")
            // Fast, without waiting for anything: slots are reused and requests cancelled under latency.
            for keys in [["PageDown", "PageDown", "j", "j", "PageDown"], ["PageUp", "j", "PageDown", "PageDown"],
                         ["End"], ["PageUp", "PageUp", "k", "PageUp"], ["j", "j", "j", "PageDown", "PageUp", "j"]] {
                for key in keys { try tmux.send(key) }
            }
            // Settled, and the same on two captures in a row: tmux may capture a frame half written.
            var previous: [String] = []
            let screen = try await tmux.waitFor("every visible thumbnail settled") { lines in
                defer { previous = lines }
                let spinning = lines.joined().unicodeScalars.contains { DemoEndToEndTests.spinner.contains($0) }
                return lines == previous && !spinning && lines.contains { $0.contains("Row ") }
            }
            var checked = 0
            let listEnd = screen.count - 3
            for (line, text) in screen.enumerated() {
                guard let range = text.range(of: #"Row \d+"#, options: .regularExpression), line + 5 <= listEnd,
                      let row = Int(text[range].dropFirst(4)) else { continue }
                let picture = try rendered(photo(forRow: row))
                let top = line + (5 - picture.count) / 2
                let x = 2 + (12 - (picture.map(\.count).max() ?? 0)) / 2
                for (i, expected) in picture.enumerated() {
                    // capture-pane drops trailing spaces, which a thumbnail's last columns may be.
                    var shown = Array(screen[top + i])
                    if shown.count < x + expected.count {
                        shown += Array(repeating: " ", count: x + expected.count - shown.count)
                    }
                    let slice = String(shown[x..<(x + expected.count)])
                    #expect(slice == expected, "row \(row), thumbnail line \(i)")
                }
                checked += 1
            }
            #expect(checked >= 3, "several whole rows were on screen to check")
            try tmux.send("q")
            #expect(try await tmux.exitStatus() == 0)
            let stats = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statsFile))) as? [String: Int])
            #expect(stats["wrong_paints"] == 0)
            #expect(stats["slot_reuses", default: 0] > 0, "scrolling reused slots")
            #expect(stats["requests_started", default: 0] > 0)
        }
    }
}
