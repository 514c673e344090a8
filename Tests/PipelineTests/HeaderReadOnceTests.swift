#if DEBUG
import Cells
import Codecs
import Foundation
import Pipeline
import TestSupport
import Testing
import TextArt

/// Issue 25, item 4: a thumbnail's header is read once, from the fit through the memory budget to the decoder.
@Suite struct HeaderReadOnceTests {
    @Test func aPhotoThumbnailReadsItsHeaderOnce() async throws {
        let photo = try [UInt8](Data(contentsOf: PipelineIntegrationTests.photos.appendingPathComponent("rocket.jpg")))
        try await TestHTTPServer.with { server in
            server.serve("/rocket.jpg", .ok(photo, contentType: "image/jpeg"))
            let pipeline = ImagePipeline(configuration: .init(), loader: DataLoader(), diskCache: nil)
            let request = ThumbnailRequest(url: server.url("/rocket.jpg"), size: CellSize(columns: 16, rows: 8),
                                           options: TextArtOptions(mode: .ascii, color: .none))
            let reads = HeaderReadCount()
            let picture = try await HeaderReadCount.$current.withValue(reads) {
                try await pipeline.thumbnail(request).value()
            }
            #expect(!picture.plainText.isEmpty)
            #expect(pipeline.counters.snapshot.decodes == 1)
            #expect(reads.count == 1)
        }
    }
}
#endif
