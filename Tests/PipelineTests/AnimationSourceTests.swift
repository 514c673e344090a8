import Cells
import Codecs
import Foundation
import Pipeline
import TestSupport
import Testing
import TextArt

/// `ImagePipeline.animation(_:)`, what the detail pane plays: an animated picture's frames drawn as the still
/// picture is, from the bytes the still one was loaded from.
@Suite struct AnimationSourceTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../CodecsTests/Fixtures").standardized

    func fixture(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
    }

    func request(_ url: URL) -> ThumbnailRequest {
        ThumbnailRequest(url: url, size: CellSize(columns: 12, rows: 4),
                         options: TextArtOptions(mode: .blocks, color: .truecolor))
    }

    @Test func anAnimationPlaysItsFramesDrawnAsTheStillPictureIs() async throws {
        let gif = try fixture("animated.gif")
        try await TestHTTPServer.with { server in
            server.serve("/spin", .ok(gif, contentType: "image/gif"))
            let pipeline = ImagePipeline(configuration: .init(), loader: DataLoader())
            let request = request(server.url("/spin"))
            let still = try await pipeline.thumbnail(request).value()

            let source = try #require(try await pipeline.animation(request))
            let frames = try #require(try source.frames())
            var loop: [(cells: CellBuffer, displayTime: Duration)] = []
            for _ in 0..<5 { loop.append(try frames.next()) }

            #expect(loop[0].cells == still, "the first frame is the picture the pane already shows")
            #expect(loop[1].cells != loop[0].cells, "the second frame differs")
            #expect(loop[4].cells == loop[0].cells && frames.framesPerLoop == 4, "four frames, then the first again")
            // The fixture's delays are 100, 200, 50 and 0 ms: the last shows 100 ms, as browsers do.
            #expect(loop.map(\.displayTime) == [.milliseconds(100), .milliseconds(200), .milliseconds(50),
                                                 .milliseconds(100), .milliseconds(100)])
            #expect(server.requests(to: "/spin").count == 1, "the frames come from the bytes already loaded")
        }
    }

    /// An AVIF sequence (libavif) over HTTP: its first frame is the still picture libheif drew, from the same bytes.
    @Test(.enabled(if: NewerFormatFiles.encodersAvailable, "avifenc is missing: run scripts/setup"))
    func anAVIFSequencePlaysFromTheBytesAlreadyLoaded() async throws {
        let scratch = try NewerFormatFiles.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let frames = try AVIFSequenceFiles.steppingBar(count: 3, in: scratch).map {
            (png: $0, ticks: 70)
        }
        let avif = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try AVIFSequenceFiles.make(
            frames, output: scratch.appendingPathComponent("bar.avif").path))))
        let still = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try NewerFormatFiles.make(.avif, in: scratch))))
        try await TestHTTPServer.with { server in
            server.serve("/bar", .ok(avif, contentType: "image/avif"))
            server.serve("/still", .ok(still, contentType: "image/avif"))
            let refused = AVIFSequenceFiles.declaringSamplesPerChunk(1_000_000, in: avif)
            server.serve("/refused", .ok(refused, contentType: "image/avif"))
            let pipeline = ImagePipeline(configuration: .init(), loader: DataLoader())
            #expect(try await pipeline.animation(request(server.url("/still"))) == nil, "a still AVIF has no player")
            #expect(try await pipeline.animation(request(server.url("/refused"))) == nil,
                    "nor has a sequence libavif refuses (a million frames)")
            let request = request(server.url("/bar"))
            let still = try await pipeline.thumbnail(request).value()

            let played = try #require(try await pipeline.animation(request)?.frames())
            let loop = try (0..<4).map { _ in try played.next() }
            #expect(loop[0].cells == still, "the first frame is the picture the pane already shows")
            #expect(loop[1].cells != loop[0].cells && loop[3].cells == loop[0].cells && played.framesPerLoop == 3)
            #expect(loop.map(\.displayTime) == Array(repeating: .milliseconds(70), count: 4))
            #expect(server.requests(to: "/bar").count == 1, "the frames come from the bytes already loaded")
        }
    }

    @Test func aStillPictureHasNoAnimation() async throws {
        let png = try fixture("rgb.png"), gif = try fixture("still.gif")
        try await TestHTTPServer.with { server in
            server.serve("/png", .ok(png, contentType: "image/png"))
            server.serve("/gif", .ok(gif, contentType: "image/gif"))
            let pipeline = ImagePipeline(configuration: .init(), loader: DataLoader())
            #expect(try await pipeline.animation(request(server.url("/png"))) == nil)
            // Once its bitmap is in memory, its format answers: the bytes are not read or fetched again.
            _ = try await pipeline.thumbnail(request(server.url("/png"))).value()
            let fetched = server.requests(to: "/png").count, hits = pipeline.counters.snapshot.memoryHits
            #expect(try await pipeline.animation(request(server.url("/png"))) == nil)
            #expect(server.requests(to: "/png").count == fetched)
            #expect(pipeline.counters.snapshot.memoryHits == hits, "answered from the bitmap's format, not the bytes")
            #expect(try await pipeline.animation(request(server.url("/gif"))) == nil,
                    "a GIF of one frame is opened before answering: no player says it plays a still picture")
        }
    }
}
