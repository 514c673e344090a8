import Cells
import Foundation
import Pipeline
import TestSupport
import Testing
import TextArt

/// A full disk cache does not hold pictures back: the folder is counted and trimmed beside the work, never before a
/// picture is shown.
@Suite struct CacheTrimTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized
    let horse: [UInt8]
    let folder: URL

    init() throws {
        horse = try [UInt8](Data(contentsOf: Self.photos.appendingPathComponent("horse.png")))
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("thumbtable-trim-\(UUID())")
    }

    func request(_ url: URL) -> ThumbnailRequest {
        ThumbnailRequest(url: url, size: CellSize(columns: 16, rows: 8), options: TextArtOptions(mode: .ascii, color: .none))
    }

    @Test func picturesAreShownFromAFullCacheWhileItsTrimIsHeld() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // A folder over its limit: 200 entries of 1 KB each, and a limit of 100 KB.
        let filler = try DiskCache(directory: folder)
        for i in 0..<200 {
            filler.store(LoadedData(bytes: [UInt8](repeating: UInt8(i & 0xFF), count: 1_000)),
                         for: URL(string: "https://example.com/old/\(i)")!)
        }
        filler.waitForTrims()
        let trims = DispatchQueue(label: "held trims")
        trims.suspend()
        let cache = try DiskCache(directory: folder, sizeLimit: 100_000 + horse.count * 4, trimQueue: trims)

        try await TestHTTPServer.with { server in
            for i in 0..<3 { server.serve("/\(i).png", .ok(horse, contentType: "image/png")) }
            let pipeline = ImagePipeline(loader: DataLoader(), diskCache: cache)
            for i in 0..<3 {
                // With the trim held, a store that waited for it would never let this picture through.
                let picture = try await pipeline.thumbnail(request(server.url("/\(i).png"))).value()
                #expect(!picture.plainText.isEmpty)
                #expect(cache.entry(for: server.url("/\(i).png"))?.bytes == horse, "stored at once")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 203, "nothing trimmed yet")
        trims.resume()
        cache.waitForTrims()
        #expect(cache.stats().bytes <= cache.sizeLimit)
    }
}
