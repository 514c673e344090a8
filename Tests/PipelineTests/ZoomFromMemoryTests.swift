import Cells
import Foundation
import Pipeline
import TestSupport
import Testing
import TextArt

/// A thumbnail asked for at another size (a zoom, a resize) is drawn from the decoded bitmap already in memory: no
/// new download, no new decode, with the real codecs and renderer over 127.0.0.1.
@Suite struct ZoomFromMemoryTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized
    let options = TextArtOptions(mode: .sextants, color: .truecolor)

    func request(_ url: URL, _ columns: Int, _ rows: Int) -> ThumbnailRequest {
        ThumbnailRequest(url: url, size: CellSize(columns: columns, rows: rows), options: options)
    }

    /// Loads `file` at each size in turn; returns the pipeline's counters and the server's requests for it.
    func load(_ file: String, sizes: [(Int, Int)]) async throws -> (PipelineCounters.Snapshot, Int, [CellBuffer]) {
        let bytes = try [UInt8](Data(contentsOf: Self.photos.appendingPathComponent(file)))
        return try await TestHTTPServer.with { server in
            server.serve("/\(file)", .ok(bytes))
            let pipeline = ImagePipeline(loader: DataLoader())
            var pictures: [CellBuffer] = []
            for (columns, rows) in sizes {
                pictures.append(try await pipeline.thumbnail(request(server.url("/\(file)"), columns, rows)).value())
            }
            return (pipeline.counters.snapshot, server.requests(to: "/\(file)").count, pictures)
        }
    }

    @Test func aSmallerSizeIsDrawnFromTheLargerBitmapInMemory() async throws {
        // A JPEG decodes at the smallest scale that covers its size: the larger size's bitmap covers the smaller.
        let (counters, requests, pictures) = try await load("hubble_deep_field.jpg", sizes: [(40, 16), (12, 5)])
        #expect(requests == 1)
        #expect(counters.decodes == 1, "the second size was drawn from the first one's bitmap")
        #expect(counters.renders == 2)
        #expect(pictures[1].width <= 12 && pictures[1].height <= 5 && pictures[1].width >= 10)
    }

    @Test func aLargerSizeIsDrawnFromAWholeImageInMemory() async throws {
        // A PNG always decodes whole, so its bitmap serves any size.
        let (counters, requests, pictures) = try await load("chelsea.png", sizes: [(12, 5), (43, 18), (12, 5)])
        #expect(requests == 1)
        #expect(counters.decodes == 1)
        #expect(counters.renders == 2, "the first size came back from the rendered-grid cache")
        #expect(pictures[1].height == 18 || pictures[1].width == 43)
        #expect(pictures[2] == pictures[0])
    }

    @Test func aSizeTheBitmapDoesNotCoverIsDecodedAgainFromTheBytesInMemory() async throws {
        // A 1/8-scale JPEG bitmap is too small for a much larger thumbnail: decoded again, not downloaded again.
        let (counters, requests, pictures) = try await load("rocket.jpg", sizes: [(6, 2), (150, 60)])
        #expect(requests == 1)
        #expect(counters.decodes == 2)
        #expect(counters.downloadsStarted == 1)
        #expect(pictures[1].width > 100)
    }
}
