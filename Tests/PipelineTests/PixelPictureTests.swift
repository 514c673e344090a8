import Cells
import Codecs
import Foundation
import Pipeline
import Pixels
import TestSupport
import Testing
import TextArt

/// Pictures in pixels for terminal images (`ImagePipeline.pixels`): fitted inside a pixel box with the aspect
/// kept, never enlarged, through the same caches and coalescing as thumbnails, with the real codecs over 127.0.0.1.
@Suite struct PixelPictureTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized

    func serve<T: Sendable>(_ file: String,
                            _ body: (TestHTTPServer, URL) async throws -> T) async throws -> T {
        let bytes = try [UInt8](Data(contentsOf: Self.photos.appendingPathComponent(file)))
        return try await TestHTTPServer.with { server in
            server.serve("/\(file)", .ok(bytes))
            return try await body(server, server.url("/\(file)"))
        }
    }

    @Test func aPictureIsFittedInsideTheBoxWithItsAspectKept() async throws {
        // rocket.jpg is 640x427: in a 120x100 box the width decides, 120x80.
        let bitmap = try await serve("rocket.jpg") { _, url in
            try await ImagePipeline(loader: DataLoader()).pixels(.init(url: url, box: PixelSize(width: 120, height: 100)))
                .value()
        }
        #expect(bitmap.width == 120 && bitmap.height == 80)
        // A photo, not a flat fill: the scaler kept the picture.
        let distinct = Set(stride(from: 0, to: bitmap.pixels.count, by: 4).map { bitmap.pixels[$0] })
        #expect(distinct.count > 20)
    }

    @Test func aSmallPictureIsNeverEnlarged() async throws {
        let bitmap = try await serve("chelsea.png") { _, url in
            try await ImagePipeline(loader: DataLoader()).pixels(.init(url: url, box: PixelSize(width: 2000, height: 900)))
                .value()
        }
        #expect(bitmap.width == 451 && bitmap.height == 300)
    }

    @Test func aSecondAskIsAnsweredFromMemoryAndAThumbnailSharesTheDownload() async throws {
        let (counters, requests, second) = try await serve("hubble_deep_field.jpg") { server, url in
            let pipeline = ImagePipeline(loader: DataLoader())
            let request = ImagePipeline.PixelRequest(url: url, box: PixelSize(width: 100, height: 100))
            _ = try await pipeline.thumbnail(ThumbnailRequest(url: url, size: CellSize(columns: 12, rows: 5),
                                                              options: TextArtOptions(mode: .sextants))).value()
            let first = try await pipeline.pixels(request).value()
            let second = pipeline.pixels(request)
            #expect(first.width == 100 && first.height == 87)
            return (pipeline.counters.snapshot, server.requests(to: "/hubble_deep_field.jpg").count, second)
        }
        #expect(requests == 1, "the thumbnail's download served the pixels too")
        guard case .ready(let bitmap) = second else {
            Issue.record("the fitted bitmap was not in memory")
            return
        }
        #expect(bitmap.width == 100)
        #expect(counters.downloadsStarted == 1)
    }

    @Test func equalRequestsShareOneJobAndACancelledOneStopsIt() async throws {
        let loader = FakeDataLoader()
        let pipeline = ImagePipeline(loader: loader)
        let url = URL(string: "http://127.0.0.1:9/a.png")!
        let request = ImagePipeline.PixelRequest(url: url, box: PixelSize(width: 50, height: 50))
        let first = Task { try await pipeline.pixels(request).value() }
        let second = Task { try await pipeline.pixels(request).value() }
        #expect(await loader.waitForStarts(1))
        first.cancel()
        second.cancel()
        #expect(await loader.waitUntil { $0.cancelled.contains(url) }, "the download stopped with its last taker")
        #expect(loader.started.count == 1, "one download for both")
        await #expect(throws: CancellationError.self) { try await second.value }
    }

    @Test func theScalerAveragesAndWeighsByAlpha() {
        // Two pixels into one: an opaque red and a transparent green give red at half alpha.
        let source = Bitmap(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 255, 0, 0])
        let scaled = PixelFit(imageSize: PixelSize(width: 2, height: 1), in: PixelSize(width: 1, height: 1)).scale(source)
        #expect(scaled.pixels == [255, 0, 0, 128])
    }
}
