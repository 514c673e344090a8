import Cells
import Codecs
import Foundation
import Pipeline
import TestSupport
import Testing
import TextArt

/// Permanent failures remembered for the run, with real parts: the curl loader against a server on 127.0.0.1 that
/// counts requests, and the real codecs.
@Suite struct FailureMemoryTests {
    let options = TextArtOptions(mode: .ascii, color: .none)

    func pipeline() -> ImagePipeline {
        ImagePipeline(configuration: .init(retry: RetryPolicy(maxRetries: 1, baseDelay: .milliseconds(1))),
                      loader: DataLoader())
    }

    func request(_ url: URL, columns: Int = 16) -> ThumbnailRequest {
        ThumbnailRequest(url: url, size: CellSize(columns: columns, rows: 8), options: options)
    }

    func failure(_ pipeline: ImagePipeline, _ request: ThumbnailRequest) async -> PipelineError? {
        do {
            _ = try await pipeline.thumbnail(request).value()
            return nil
        } catch {
            return error as? PipelineError
        }
    }

    @Test(arguments: [404, 410, 403])
    func aPermanentStatusIsRequestedOnceAndAnsweredAgainAtOnce(status: Int) async throws {
        try await TestHTTPServer.with { server in
            server.serve("/gone.png", .status(status))
            let pipeline = pipeline()
            let url = server.url("/gone.png")
            let first = await failure(pipeline, request(url))
            // The row scrolls back, at another size too (a zoom): the same answer, no request.
            let again = await failure(pipeline, request(url))
            let zoomed = await failure(pipeline, request(url, columns: 30))
            #expect(first == .load(.httpStatus(status, url: url, retryAfter: nil)))
            #expect(again == first && zoomed == first)
            #expect(server.requests(to: "/gone.png").count == 1)
            #expect(pipeline.counters.snapshot.failuresRemembered == 2)
        }
    }

    @Test func forgettingTheFailureRequestsAgain() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/late.png", replies: [.status(404), .ok(Self.png, contentType: "image/png")])
            let pipeline = pipeline()
            let url = server.url("/late.png")
            #expect(await failure(pipeline, request(url)) != nil)
            pipeline.forgetFailure(url)
            let retried = try await pipeline.thumbnail(request(url)).value().plainText
            #expect(!retried.isEmpty, "the `r` key's retry")
            #expect(server.requests(to: "/late.png").count == 2)
        }
    }

    @Test func removingFromTheCachesForgetsTheFailureToo() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/gone.png", .status(404))
            let pipeline = pipeline()
            let url = server.url("/gone.png")
            _ = await failure(pipeline, request(url))
            pipeline.removeFromCaches(url)
            _ = await failure(pipeline, request(url))
            #expect(server.requests(to: "/gone.png").count == 2)
            #expect(pipeline.counters.snapshot.failuresRemembered == 0)
        }
    }

    @Test func aTransientFailureIsRetriedAsBeforeAndNotRemembered() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/busy.png", .status(503))
            let pipeline = pipeline()
            let url = server.url("/busy.png")
            #expect(await failure(pipeline, request(url)) == .load(.httpStatus(503, url: url, retryAfter: nil)))
            #expect(server.requests(to: "/busy.png").count == 2, "the first attempt and its one retry")
            _ = await failure(pipeline, request(url))
            #expect(server.requests(to: "/busy.png").count == 4, "asked again when the row comes back")
            #expect(pipeline.counters.snapshot.failuresRemembered == 0)
        }
    }

    @Test func bytesThatDoNotDecodeAreRemembered() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/garbage.png", .ok(Array("this is not a picture".utf8), contentType: "image/png"))
            let pipeline = pipeline()
            let url = server.url("/garbage.png")
            let first = await failure(pipeline, request(url))
            guard case .decode = first else {
                Issue.record("expected a decode failure, got \(String(describing: first))")
                return
            }
            #expect(await failure(pipeline, request(url)) == first)
            #expect(server.requests(to: "/garbage.png").count == 1)
            #expect(pipeline.counters.snapshot.failuresRemembered == 1)
        }
    }

    /// A 2x2 PNG.
    static let png: [UInt8] = try! PNGEncoder.indexed(
        width: 2, height: 2, palette: [.init(r: 200, g: 10, b: 10), .init(r: 10, g: 10, b: 200)], indices: [0, 1, 1, 0])
}
