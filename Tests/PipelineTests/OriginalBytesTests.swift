import Cells
import Foundation
import Pipeline
import TestSupport
import Testing
import TextArt

/// `ImagePipeline.original(_:)`, what `w` saves: the image's bytes exactly as the server sent them, from the caches
/// when the picture was shown (no second request), else downloaded; with the extension of the format they are in.
@Suite struct OriginalBytesTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized
    let chelsea: [UInt8]
    let hubble: [UInt8]
    let cacheDirectory = FileManager.default.temporaryDirectory
        .appendingPathComponent("thumbtable-original-\(UUID().uuidString)")

    init() throws {
        chelsea = try [UInt8](Data(contentsOf: Self.photos.appendingPathComponent("chelsea.png")))
        hubble = try [UInt8](Data(contentsOf: Self.photos.appendingPathComponent("hubble_deep_field.jpg")))
    }

    func pipeline(diskCache: Bool) throws -> ImagePipeline {
        ImagePipeline(configuration: .init(), loader: DataLoader(),
                      diskCache: diskCache ? try DiskCache(directory: cacheDirectory) : nil)
    }

    @Test func aShownPictureIsSavedFromMemoryWithoutASecondRequest() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/cat", .ok(chelsea, contentType: "image/png"))
            let pipeline = try pipeline(diskCache: false)
            let request = ThumbnailRequest(url: server.url("/cat"), size: CellSize(columns: 10, rows: 5),
                                           options: TextArtOptions(mode: .ascii, color: .none))
            _ = try await pipeline.thumbnail(request).value()
            let original = try await pipeline.original(server.url("/cat"))
            #expect(original.bytes == chelsea)
            #expect(original.fileExtension == "png", "sniffed from the bytes: the URL has no extension")
            #expect(server.requests(to: "/cat").count == 1)
        }
    }

    @Test func anImageNotInMemoryComesFromTheDiskCacheElseTheNetwork() async throws {
        defer { try? FileManager.default.removeItem(at: cacheDirectory) }
        try await TestHTTPServer.with { server in
            server.serve("/deep.jpg", .ok(hubble, contentType: "image/jpeg"))
            let first = try await pipeline(diskCache: true).original(server.url("/deep.jpg"))
            #expect(first.bytes == hubble)
            #expect(first.fileExtension == "jpg")
            // A new pipeline (a later run): nothing in memory, the bytes come from disk.
            let again = try pipeline(diskCache: true)
            #expect(try await again.original(server.url("/deep.jpg")).bytes == hubble)
            #expect(server.requests(to: "/deep.jpg").count == 1)
            #expect(again.counters.snapshot.diskHits == 1)
        }
    }

    @Test func bytesThatAreNoImageComeWithoutAnExtensionAndAFailureThrows() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/page", .ok(Array("<html>not a picture</html>".utf8), contentType: "text/html"))
            server.serve("/gone", .status(404))
            let pipeline = try pipeline(diskCache: false)
            let page = try await pipeline.original(server.url("/page"))
            #expect(page.fileExtension == nil)
            await #expect(throws: PipelineError.self) { _ = try await pipeline.original(server.url("/gone")) }
        }
    }
}
