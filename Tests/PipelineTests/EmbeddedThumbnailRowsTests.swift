import Cells
import Codecs
import Foundation
import Pipeline
import Pixels
import TestSupport
import Testing
import TextArt

/// Issue 30, item 2, through the pipeline the rows use: camera JPEGs over 127.0.0.1 are drawn at row size from their
/// EXIF thumbnails (counted in `embedded_thumbnails`), and at the detail pane's size, or in pixels a thumbnail
/// would have to be enlarged for, from the full image.
@Suite(.enabled(if: ExifThumbnailFiles.exiftoolAvailable, "exiftool is missing: run scripts/setup"))
struct EmbeddedThumbnailRowsTests {
    static let red = RGBA(r: 220, g: 30, b: 30), blue = RGBA(r: 30, g: 30, b: 220)
    let options = TextArtOptions(mode: .sextants, color: .truecolor)

    /// A 1600x1200 red JPEG with a 160x120 blue EXIF thumbnail.
    static func cameraPhoto() throws -> [UInt8] {
        let scratch = try NewerFormatFiles.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let thumbnail = try JPEGEncoder.encode(Bitmap(width: 160, height: 120, fill: Self.blue))
        return try ExifThumbnailFiles.make(Bitmap(width: 1600, height: 1200, fill: Self.red), thumbnail: thumbnail,
                                           in: scratch)
    }

    /// Serves `count` copies of `cameraPhoto()` as /1.jpg, /2.jpg, ...
    func serveCameraPhotos<T: Sendable>(_ count: Int,
                                        _ body: (TestHTTPServer, [URL]) async throws -> T) async throws -> T {
        let photo = try Self.cameraPhoto()
        return try await TestHTTPServer.with { server in
            for index in 1...count { server.serve("/\(index).jpg", .ok(photo, contentType: "image/jpeg")) }
            return try await body(server, (1...count).map { server.url("/\($0).jpg") })
        }
    }

    /// Whether more of the picture's 24-bit colours are blue than red.
    private static func isBlue(_ picture: CellBuffer) -> Bool {
        var balance = 0
        for cell in picture.cells {
            for colour in [cell.style.foreground, cell.style.background] {
                if case .rgb(let r, _, let b) = colour { balance += b > r ? 1 : (r > b ? -1 : 0) }
            }
        }
        return balance > 0
    }

    @Test func rowsAreDrawnFromTheThumbnailsAndThePaneFromTheImage() async throws {
        try await serveCameraPhotos(6) { _, urls in
            let pipeline = ImagePipeline(loader: DataLoader())
            var rows: [CellBuffer] = []
            for url in urls {
                let request = ThumbnailRequest(url: url, size: CellSize(columns: 16, rows: 8), options: options)
                rows.append(try await pipeline.thumbnail(request).value())
            }
            var counts = pipeline.counters.snapshot
            #expect(counts.decodes == 6 && counts.embeddedThumbnails == 6)
            // The detail pane's picture needs more pixels than 160x120: the full image, red, not the thumbnail.
            let pane = try await pipeline.thumbnail(ThumbnailRequest(url: urls[0], size: CellSize(columns: 120,
                                                                                                  rows: 45),
                                                                     options: options)).value()
            counts = pipeline.counters.snapshot
            #expect(counts.decodes == 7 && counts.embeddedThumbnails == 6)
            #expect(rows.allSatisfy { $0 == rows[0] })
            #expect(Self.isBlue(rows[0]), "the rows show the thumbnail's blue")
            #expect(!Self.isBlue(pane), "the pane shows the image's red")
        }
    }

    @Test func aPictureInPixelsIsNeverAnEnlargedThumbnail() async throws {
        try await serveCameraPhotos(1) { _, urls in
            let pipeline = ImagePipeline(loader: DataLoader())
            let large = try await pipeline.pixels(.init(url: urls[0], box: PixelSize(width: 400, height: 300))).value()
            #expect(large.width == 400 && large.height == 300)
            #expect(large[200, 150].r > 180, "red: the full image")
            #expect(pipeline.counters.snapshot.embeddedThumbnails == 0)
            let small = try await pipeline.pixels(.init(url: urls[0], box: PixelSize(width: 120, height: 90))).value()
            #expect(small.width == 120 && small.height == 90)
            // Drawn from the 400x300 bitmap already in memory, or else from the thumbnail: either is not enlarged.
            #expect(pipeline.counters.snapshot.embeddedThumbnails <= 1)
        }
    }

    /// `thumbtable render` decodes through `PictureFit` too: a small box from the thumbnail, a large one from the
    /// image.
    @Test func renderUsesTheThumbnailOnlyWhenItCoversTheBox() throws {
        let image = EncodedImage(try Self.cameraPhoto())
        let small = PictureFit(of: image, in: CellSize(columns: 20, rows: 10), options: options)
        let large = PictureFit(of: image, in: CellSize(columns: 200, rows: 80), options: options)
        #expect(try small.decode(image).fromEmbeddedThumbnail)
        let full = try large.decode(image)
        #expect(!full.fromEmbeddedThumbnail && full.bitmap.width >= large.decodeSize.width)
    }
}
