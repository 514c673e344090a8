import Cells
import Foundation
import Pipeline
import TestSupport
import Testing
import Synchronization
import TextArt

/// The disk cache honouring HTTP caching with real parts: the curl loader over 127.0.0.1 against a server that sends
/// Cache-Control, ETags, Last-Modified and 304s and counts requests; the real disk cache in a temporary folder; the
/// real codecs. A "restart" is a new pipeline on the same folder.
@Suite struct RevalidationTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized
    let chelsea: [UInt8]
    let coffee: [UInt8]
    let cacheDirectory: URL
    let options = TextArtOptions(mode: .ascii, color: .none)

    init() throws {
        chelsea = try [UInt8](Data(contentsOf: Self.photos.appendingPathComponent("chelsea.png")))
        coffee = try [UInt8](Data(contentsOf: Self.photos.appendingPathComponent("coffee.png")))
        cacheDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("thumbtable-revalidation-\(UUID().uuidString)")
    }

    func restartedPipeline() throws -> ImagePipeline {
        ImagePipeline(configuration: .init(retry: RetryPolicy(maxRetries: 0)), loader: DataLoader(),
                      diskCache: try DiskCache(directory: cacheDirectory))
    }

    func picture(_ url: URL, from pipeline: ImagePipeline) async throws -> String {
        try await pipeline.thumbnail(ThumbnailRequest(url: url, size: CellSize(columns: 16, rows: 8),
                                                      options: options)).value().plainText
    }

    /// Answers `path` with `body` and `headers`, or a 304 (no body) when the request's If-None-Match holds `etag`.
    func serveWithETag(_ server: TestHTTPServer, _ path: String, etag: @escaping @Sendable () -> String,
                       body: @escaping @Sendable () -> [UInt8], headers: [String: String]) {
        server.serve(path) { request in
            let tag = etag()
            var headers = headers
            headers["ETag"] = tag
            if request.headers["if-none-match"] == tag { return .status(304, headers: headers) }
            return .ok(body(), contentType: "image/png", headers: headers)
        }
    }

    @Test func aFreshEntryIsServedWithoutARequest() async throws {
        try await TestHTTPServer.with { server in
            serveWithETag(server, "/cat.png", etag: { "\"v1\"" }, body: { chelsea },
                          headers: ["Cache-Control": "max-age=3600"])
            let url = server.url("/cat.png")
            let first = try await picture(url, from: restartedPipeline())
            let restarted = try restartedPipeline()
            #expect(try await picture(url, from: restarted) == first)
            #expect(server.requests(to: "/cat.png").count == 1, "fresh: no second request")
            #expect(restarted.counters.snapshot.diskHits == 1)
            #expect(restarted.counters.snapshot.revalidated == 0)
        }
    }

    @Test func aStaleEntryIsAskedAboutOnceAndA304BringsNoBody() async throws {
        try await TestHTTPServer.with { server in
            serveWithETag(server, "/cat.png", etag: { "\"v1\"" }, body: { chelsea },
                          headers: ["Cache-Control": "max-age=0"])
            let url = server.url("/cat.png")
            let first = try await picture(url, from: restartedPipeline())
            let restarted = try restartedPipeline()
            #expect(try await picture(url, from: restarted) == first)

            let requests = server.requests(to: "/cat.png")
            #expect(requests.count == 2)
            #expect(requests.first?.headers["if-none-match"] == nil, "the first request is plain")
            #expect(requests.last?.headers["if-none-match"] == "\"v1\"", "the second is conditional")
            let counts = restarted.counters.snapshot
            #expect(counts.revalidated == 1 && counts.notModified == 1)
            #expect(counts.bytesDownloaded == 0, "a 304 has no body")
            #expect(counts.diskHits == 0, "a stale entry is not a plain hit")
        }
    }

    @Test func a304RenewsTheEntrysFreshness() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/cat.png") { request in
                request.headers["if-none-match"] == "\"v1\""
                    ? .status(304, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=3600"])
                    : .ok(chelsea, contentType: "image/png", headers: ["ETag": "\"v1\"", "Cache-Control": "no-cache"])
            }
            let url = server.url("/cat.png")
            _ = try await picture(url, from: restartedPipeline())
            _ = try await picture(url, from: restartedPipeline())
            let entry = try #require(try DiskCache(directory: cacheDirectory).entry(for: url))
            #expect(entry.isFresh(at: Date()), "the 304's max-age replaced no-cache")
            #expect(entry.bytes == chelsea)
            let third = try restartedPipeline()
            _ = try await picture(url, from: third)
            #expect(server.requests(to: "/cat.png").count == 2, "the renewed entry needs no request")
            #expect(third.counters.snapshot.diskHits == 1)
        }
    }

    @Test func aChangedETagBringsTheNewBytes() async throws {
        let version = Version()
        try await TestHTTPServer.with { server in
            serveWithETag(server, "/pic.png", etag: { version.current == 1 ? "\"v1\"" : "\"v2\"" },
                          body: { version.current == 1 ? chelsea : coffee }, headers: ["Cache-Control": "max-age=0"])
            let url = server.url("/pic.png")
            let old = try await picture(url, from: restartedPipeline())
            version.current = 2
            let restarted = try restartedPipeline()
            let new = try await picture(url, from: restarted)

            #expect(new != old)
            #expect(server.requests(to: "/pic.png").last?.headers["if-none-match"] == "\"v1\"")
            #expect(restarted.counters.snapshot.revalidated == 1 && restarted.counters.snapshot.notModified == 0)
            #expect(restarted.counters.snapshot.bytesDownloaded == coffee.count)
            let entry = try #require(try DiskCache(directory: cacheDirectory).entry(for: url))
            #expect(entry.bytes == coffee && entry.metadata.etag == "\"v2\"")
        }
    }

    @Test func lastModifiedAloneIsSentAsIfModifiedSince() async throws {
        let modified = "Wed, 21 Oct 2015 07:28:00 GMT"
        try await TestHTTPServer.with { server in
            server.serve("/cat.png") { request in
                request.headers["if-modified-since"] == modified
                    ? .status(304)
                    : .ok(chelsea, contentType: "image/png",
                          headers: ["Last-Modified": modified, "Expires": "Thu, 01 Jan 1970 00:00:00 GMT"])
            }
            let url = server.url("/cat.png")
            _ = try await picture(url, from: restartedPipeline())
            let restarted = try restartedPipeline()
            _ = try await picture(url, from: restarted)
            #expect(server.requests(to: "/cat.png").last?.headers["if-modified-since"] == modified)
            #expect(restarted.counters.snapshot.notModified == 1)
        }
    }

    @Test func noStoreIsNeverWrittenToDisk() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/secret.png", .ok(chelsea, contentType: "image/png",
                                            headers: ["Cache-Control": "no-store", "ETag": "\"s\""]))
            let url = server.url("/secret.png")
            let pipeline = try restartedPipeline()
            _ = try await picture(url, from: pipeline)
            _ = try await picture(url, from: pipeline)
            #expect(server.requests(to: "/secret.png").count == 1, "kept in memory for the run")
            #expect(try DiskCache(directory: cacheDirectory).entry(for: url) == nil)
            #expect(!FileManager.default.fileExists(atPath: try DiskCache(directory: cacheDirectory)
                .fileURL(for: url).path))
            _ = try await picture(url, from: restartedPipeline())
            #expect(server.requests(to: "/secret.png").count == 2, "a restart fetches it again")
        }
    }

    @Test func noCacheIsRevalidatedEvenWithAMaxAge() async throws {
        try await TestHTTPServer.with { server in
            serveWithETag(server, "/cat.png", etag: { "\"v1\"" }, body: { chelsea },
                          headers: ["Cache-Control": "no-cache, max-age=3600"])
            let url = server.url("/cat.png")
            _ = try await picture(url, from: restartedPipeline())
            let restarted = try restartedPipeline()
            _ = try await picture(url, from: restarted)
            #expect(server.requests(to: "/cat.png").count == 2)
            #expect(restarted.counters.snapshot.notModified == 1)
        }
    }

    @Test func aStaleEntryWithoutValidatorsIsDownloadedAgainWhole() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/cat.png", .ok(chelsea, contentType: "image/png", headers: ["Cache-Control": "max-age=0"]))
            let url = server.url("/cat.png")
            _ = try await picture(url, from: restartedPipeline())
            let restarted = try restartedPipeline()
            _ = try await picture(url, from: restarted)
            let requests = server.requests(to: "/cat.png")
            #expect(requests.count == 2)
            let last = requests.last?.headers ?? [:]
            #expect(last["if-none-match"] == nil && last["if-modified-since"] == nil, "nothing to be conditional on")
            #expect(restarted.counters.snapshot.revalidated == 0)
            #expect(restarted.counters.snapshot.bytesDownloaded == chelsea.count)
        }
    }

    @Test func aStaleEntryIsShownWhenItsServerCannotBeReached() async throws {
        let url: URL = try await TestHTTPServer.with { server in
            serveWithETag(server, "/cat.png", etag: { "\"v1\"" }, body: { chelsea },
                          headers: ["Cache-Control": "max-age=0"])
            _ = try await picture(server.url("/cat.png"), from: restartedPipeline())
            return server.url("/cat.png")
        }
        // The server is gone: the connection is refused.
        let restarted = try restartedPipeline()
        let shown = try await picture(url, from: restarted)
        #expect(!shown.isEmpty)
        #expect(restarted.counters.snapshot.revalidated == 1)
    }

    @Test func aStaleEntryWhoseImageIsGoneIsDeleted() async throws {
        let gone = Version()
        try await TestHTTPServer.with { server in
            server.serve("/cat.png") { _ in
                gone.current == 2 ? .status(404)
                    : .ok(chelsea, contentType: "image/png", headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=0"])
            }
            let url = server.url("/cat.png")
            _ = try await picture(url, from: restartedPipeline())
            gone.current = 2
            await #expect(throws: PipelineError.self) { try await picture(url, from: restartedPipeline()) }
            #expect(try DiskCache(directory: cacheDirectory).entry(for: url) == nil)
        }
    }

    /// An entry as the cache wrote it before it kept freshness: the same magic and layout, a JSON header without
    /// `freshness`, stored at `storedAt`. (Bytes no server described are stored that way still; the header is
    /// rewritten to date it.)
    func writeOldFormatEntry(for url: URL, bytes: [UInt8], etag: String, storedAt: Date) throws {
        let cache = try DiskCache(directory: cacheDirectory)
        cache.store(LoadedData(bytes: bytes, contentType: "image/png", etag: etag), for: url)
        let file = try [UInt8](Data(contentsOf: cache.fileURL(for: url)))
        let magic = Array("TTCACHE1".utf8)
        let length = file[8..<12].reduce(0) { $0 << 8 | Int($1) }
        let json = try JSONSerialization.jsonObject(with: Data(file[12..<(12 + length)]))
        var header = try #require(json as? [String: Any])
        #expect(header["freshness"] == nil && header["storedAt"] != nil, "the old header's fields")
        header["storedAt"] = storedAt.timeIntervalSince1970.rounded(.down)
        let rewrittenHeader = [UInt8](try JSONSerialization.data(withJSONObject: header, options: .sortedKeys))
        let rewritten = magic + withUnsafeBytes(of: UInt32(rewrittenHeader.count).bigEndian, Array.init)
            + rewrittenHeader + bytes
        try Data(rewritten).write(to: cache.fileURL(for: url))
    }

    @Test func anOldFormatEntryStillReadsAndGetsTheDefaultLifetime() async throws {
        try await TestHTTPServer.with { server in
            serveWithETag(server, "/new.png", etag: { "\"v1\"" }, body: { chelsea }, headers: [:])
            serveWithETag(server, "/old.png", etag: { "\"v1\"" }, body: { chelsea }, headers: [:])
            let recent = server.url("/new.png"), old = server.url("/old.png")
            try writeOldFormatEntry(for: recent, bytes: chelsea, etag: "\"v1\"",
                                    storedAt: Date(timeIntervalSinceNow: -60))
            try writeOldFormatEntry(for: old, bytes: chelsea, etag: "\"v1\"",
                                    storedAt: Date(timeIntervalSinceNow: -2 * CacheFreshness.defaultLifetime))
            let cache = try DiskCache(directory: cacheDirectory)
            let entry = try #require(cache.entry(for: recent), "the old format still reads")
            #expect(entry.bytes == chelsea && entry.metadata.freshness == nil)

            let pipeline = try restartedPipeline()
            _ = try await picture(recent, from: pipeline)
            _ = try await picture(old, from: pipeline)
            #expect(server.requests(to: "/new.png").isEmpty, "within the default lifetime: no request")
            #expect(server.requests(to: "/old.png").count == 1)
            #expect(server.requests(to: "/old.png").first?.headers["if-none-match"] == "\"v1\"")
            #expect(pipeline.counters.snapshot.diskHits == 1 && pipeline.counters.snapshot.notModified == 1)
            #expect(cache.entry(for: old)?.metadata.freshness != nil, "the 304 rewrote it in the new format")
        }
    }
}

/// A value a test changes while the server's handler reads it.
final class Version: Sendable {
    private let value = Mutex(1)
    var current: Int {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
