import Foundation
import Testing

/// Thumbnails sized to the screen and zoomed with `+` and `-`, in the built binary in tmux, on a folder of real
/// photos: they grow and shrink, follow the window, and zooming a screen of loaded thumbnails downloads and decodes
/// nothing again (the `s` overlay's live counters and the stats file say so).
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct ZoomEndToEndTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized
    /// Three photos, few enough that every row stays on screen at every size the test tries: nothing new needs
    /// loading, so any download or decode after the first screen would be a zoom's.
    static let names = ["chelsea.png", "coffee.png", "hubble_deep_field.jpg"]

    /// The thumbnail block's width on screen: the row's title starts one column after it, the block two columns in.
    static func thumbnailColumns(_ screen: [String], title: String = "chelsea.png") -> Int? {
        guard let line = screen.first(where: { $0.contains(title) }), let range = line.range(of: title) else {
            return nil
        }
        return line.distance(from: line.startIndex, to: range.lowerBound) - 3
    }

    /// The lines of the first row's picture: those with a mark in its block, between its title and the next.
    static func pictureHeight(_ screen: [String]) -> Int {
        guard let columns = thumbnailColumns(screen),
              let first = screen.firstIndex(where: { $0.contains(names[0]) }),
              let next = screen.firstIndex(where: { $0.contains(names[1]) }) else { return 0 }
        return screen[first..<next].filter { line in
            let cells = Array(line)
            return cells.count > 2 && cells[2..<min(cells.count, 2 + columns)].contains { $0 != " " }
        }.count
    }

    /// A counter of the `s` overlay, as it shows now.
    static func counter(_ name: String, in screen: [String]) -> Int? {
        guard let line = screen.first(where: { $0.contains(name + " ") }) else { return nil }
        let after = line[line.range(of: name)!.upperBound...].drop { $0 == " " }
        return Int(after.prefix { $0.isNumber })
    }

    /// The bytes received as the overlay shows them ("1.5 MB").
    static func received(in screen: [String]) -> String? {
        guard let line = screen.first(where: { $0.contains("received ") }) else { return nil }
        return String(line[line.range(of: "received ")!.upperBound...].prefix { $0 != "(" && $0 != "·" })
    }

    /// Waits until every row's thumbnail has loaded and the screen is the same on two captures in a row (tmux may
    /// capture a frame half written), and `condition` holds.
    @discardableResult
    static func settled(_ tmux: TmuxSession, _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
                        _ condition: @escaping ([String]) -> Bool = { _ in true }) async throws -> [String] {
        var previous: [String] = []
        return try await tmux.waitFor(what, sourceLocation: sourceLocation) { lines in
            defer { previous = lines }
            let spinning = lines.joined().unicodeScalars.contains { DemoEndToEndTests.spinner.contains($0) }
            return lines == previous && !spinning && names.allSatisfy { name in lines.contains { $0.contains(name) } }
                && condition(lines)
        }
    }

    @Test func plusGrowsMinusShrinksTheWindowSizesThemAndZoomingLoadsNothingAgain() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tt-zoom-\(UUID().uuidString)")
        let folder = scratch.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for name in Self.names {
            try FileManager.default.copyItem(at: Self.photos.appendingPathComponent(name),
                                            to: folder.appendingPathComponent(name))
        }
        let statsFile = scratch.appendingPathComponent("stats.json").path
        let tmux = try TmuxSession(["browse", folder.path, "--mode", "ascii", "--color", "none", "--no-disk-cache",
                                    "--reuse-overlay", "--stats-file", statsFile,
                                    // Its own memory limit: the machine's (the cgroup's) is shared with every suite
                                    // running beside this one, whose pressure would purge the caches and count
                                    // decodes and downloads again.
                                    "--memory-limit", "4096"], columns: 120, rows: 50)
        defer { tmux.close() }

        let start = try await Self.settled(tmux, "the first screen loaded") { Self.counter("decodes", in: $0) == 3 }
        let columns = try #require(Self.thumbnailColumns(start))
        let height = Self.pictureHeight(start)
        #expect(columns > 12, "a 120x50 window gets bigger thumbnails than the old 12x5")
        #expect(Self.counter("downloads", in: start) == 3)

        // The selection stays on the second row through every zoom and resize.
        try tmux.send("j")
        try await tmux.waitFor(text: " 2 / 3")
        try tmux.send("-")
        let smaller = try await Self.settled(tmux, "smaller thumbnails") { Self.thumbnailColumns($0) ?? 0 < columns }
        #expect(Self.pictureHeight(smaller) < height)
        try tmux.send("+")
        let back = try await Self.settled(tmux, "the thumbnails grown back") { Self.thumbnailColumns($0) == columns }
        #expect(Self.pictureHeight(back) == height)
        #expect(Self.pictureHeight(back) > Self.pictureHeight(smaller))
        try tmux.send("+")
        try await tmux.waitFor("the note at the largest size") { lines in
            lines.last { !$0.isEmpty }?.contains("thumbnails at their largest") == true
        }

        // Zooming drew every picture again from memory: no download, no decode.
        let zoomed = try await Self.settled(tmux, "the zoomed screen") { _ in true }
        #expect(Self.counter("downloads", in: zoomed) == 3)
        #expect(Self.received(in: zoomed) != nil && Self.received(in: zoomed) == Self.received(in: start))
        #expect(Self.counter("decodes", in: zoomed) == 3)

        try tmux.resize(columns: 200, rows: 60)
        try await Self.settled(tmux, "bigger thumbnails in a bigger window") {
            (Self.thumbnailColumns($0) ?? 0) > columns
        }
        // The overlay's panel covers the bottom of a small screen's list: hidden, so all three rows are in sight.
        try tmux.send("s")
        try tmux.resize(columns: 80, rows: 24)
        let small = try await Self.settled(tmux, "the old 12x5 in an 80x24 window") { Self.thumbnailColumns($0) == 12 }
        #expect(small[0].contains(" 2 / 3"), "the selection stayed: \(small[0])")
        #expect(small.contains { $0.hasPrefix("▌") && $0.contains("coffee.png") }, "the selected row is on screen")

        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
        let stats = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statsFile))) as? [String: Int])
        #expect(stats["downloads_started"] == 3, "each photo read once, whatever the zoom and the window")
        #expect(stats["decodes"] == 3, "each photo decoded once: every other size was drawn from its bitmap")
        #expect(stats["wrong_paints"] == 0)
        #expect(stats["requests_failed"] == 0)
    }
}
