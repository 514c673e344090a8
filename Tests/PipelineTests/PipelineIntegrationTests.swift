import Cells
import Codecs
import Foundation
import Pipeline
import TestSupport
import Testing
import TextArt

/// The pipeline with its real parts: the URLSession loader over 127.0.0.1 against a server the test starts, the
/// real disk cache in a temporary folder, the real codecs and renderer.
@Suite struct PipelineIntegrationTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized
    let chelsea: [UInt8]
    let cacheDirectory: URL
    let options = TextArtOptions(mode: .ascii, color: .none)

    init() throws {
        chelsea = try [UInt8](Data(contentsOf: Self.photos.appendingPathComponent("chelsea.png")))
        cacheDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("thumbtable-pipeline-\(UUID().uuidString)")
    }

    func pipeline(diskCache: Bool = true, limits: LoadLimits = .default) throws -> ImagePipeline {
        ImagePipeline(configuration: .init(limits: limits, retry: RetryPolicy(baseDelay: .milliseconds(10))),
                      loader: DataLoader(), diskCache: diskCache ? try DiskCache(directory: cacheDirectory) : nil)
    }

    func request(_ url: URL) -> ThumbnailRequest {
        ThumbnailRequest(url: url, size: CellSize(columns: 16, rows: 8), options: options)
    }

    @Test func rowsAskingForOneURLCauseOneRequest() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/cat.png", .ok(chelsea, contentType: "image/png").delayed(by: .milliseconds(200)))
            let pipeline = try pipeline(diskCache: false)
            let pictures = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 { group.addTask { try await pipeline.thumbnail(request(server.url("/cat.png"))).value().plainText } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(pictures).count == 1)
            #expect(server.requests(to: "/cat.png").count == 1)
            #expect(pipeline.counters.snapshot.coalesced == 7)
        }
    }

    @Test func a503WithRetryAfterIsRetriedToSuccess() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/busy.png", replies: [.status(503, headers: ["Retry-After": "1"]), .ok(chelsea)])
            let pipeline = try pipeline(diskCache: false)
            let picture = try await pipeline.thumbnail(request(server.url("/busy.png"))).value()
            #expect(!picture.plainText.isEmpty)
            let attempts = server.requests(to: "/busy.png")
            #expect(attempts.count == 2)
            #expect(attempts[1].arrivedAt - attempts[0].arrivedAt >= .milliseconds(900), "it waited as asked")
            #expect(pipeline.counters.snapshot.retries == 1)
        }
    }

    @Test func a404IsRequestedOnceAndSaysSo() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/gone.png", .status(404))
            let pipeline = try pipeline(diskCache: false)
            await #expect(throws: PipelineError.load(.httpStatus(404, url: server.url("/gone.png"), retryAfter: nil))) {
                try await pipeline.thumbnail(request(server.url("/gone.png"))).value()
            }
            #expect(server.requests(to: "/gone.png").count == 1)
        }
    }

    @Test func aBodyOverTheLimitIsCutOff() async throws {
        try await TestHTTPServer.with { server in
            let big = [UInt8](repeating: 0x42, count: 4 << 20)
            server.serve("/big.png", Reply(body: big, chunked: true).paced(chunkSize: 64 << 10, interval: .milliseconds(1)))
            let pipeline = try pipeline(diskCache: false, limits: LoadLimits(maxBytes: 1 << 20))
            do {
                _ = try await pipeline.thumbnail(request(server.url("/big.png"))).value()
                Issue.record("a body over the limit was accepted")
            } catch let error as PipelineError {
                #expect(error == .load(.tooLarge(limit: 1 << 20, url: server.url("/big.png"))))
                #expect(error.description.contains("larger than the 1 MB limit"))
            }
            #expect(pipeline.counters.snapshot.bytesDownloaded < 2 << 20, "the download stopped near the limit")
        }
    }

    @Test func aSecondRunIsServedFromTheDiskCacheWithoutAnImageRequest() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/cat.png", .ok(chelsea, contentType: "image/png", headers: ["ETag": "\"v1\""]))
            let first = try await pipeline().thumbnail(request(server.url("/cat.png"))).value()
            // A new pipeline on the same folder: a restart.
            let restarted = try pipeline()
            let second = try await restarted.thumbnail(request(server.url("/cat.png"))).value()
            #expect(first == second)
            #expect(server.requests(to: "/cat.png").count == 1)
            #expect(restarted.counters.snapshot.diskHits == 1)
            let entry = try #require(try DiskCache(directory: cacheDirectory).entry(for: server.url("/cat.png")))
            #expect(entry.metadata.etag == "\"v1\"" && entry.metadata.contentType == "image/png")
        }
    }

    @Test func aCorruptCacheFileIsFetchedAgainNotDrawn() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/cat.png", .ok(chelsea, contentType: "image/png"))
            let url = server.url("/cat.png")
            let good = try await pipeline().thumbnail(request(url)).value()
            let cache = try DiskCache(directory: cacheDirectory)
            let file = cache.fileURL(for: url)
            var bytes = try [UInt8](Data(contentsOf: file))
            for i in stride(from: bytes.count - 2000, to: bytes.count, by: 7) { bytes[i] ^= 0xFF }
            try Data(bytes).write(to: file)
            let restarted = try pipeline()
            #expect(try await restarted.thumbnail(request(url)).value() == good)
            #expect(server.requests(to: "/cat.png").count == 2, "the damaged entry was fetched again")
            #expect(restarted.counters.snapshot.diskEntriesDiscarded == 1, "and counted")
            #expect(cache.entry(for: url)?.bytes == chelsea, "and stored again whole")
        }
    }

    @Test func aCachedImageOverTheLimitsIsRefusedNotDiscardedAndFetchedAgain() async throws {
        // A PNG whose header claims 20000x20000 pixels: sound bytes, over the pixel limit of one decode.
        var png = try PNGEncoder.indexed(width: 1, height: 1, palette: [.init(r: 1, g: 2, b: 3)], indices: [0])
        for (offset, value) in [(16, 20_000), (20, 20_000)] {
            for i in 0..<4 { png[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * i)) }
        }
        try await TestHTTPServer.with { server in
            server.serve("/huge.png", .ok(png, contentType: "image/png"))
            let url = server.url("/huge.png")
            let first = try pipeline()
            await #expect(throws: PipelineError.self) { try await first.thumbnail(request(url)).value() }
            let restarted = try pipeline()
            do {
                _ = try await restarted.thumbnail(request(url)).value()
                Issue.record("a 400-megapixel image was decoded")
            } catch let error as PipelineError {
                guard case .overLimit = error else { Issue.record("\(error)"); return }
            }
            #expect(restarted.counters.snapshot.diskHits == 1)
            #expect(restarted.counters.snapshot.diskEntriesDiscarded == 0, "a sound entry is kept")
            #expect(server.requests(to: "/huge.png").count == 1, "and not fetched again")
        }
    }
}

typealias Reply = TestHTTPServer.Reply
