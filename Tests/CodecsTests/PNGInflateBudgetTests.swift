@testable import Codecs
import Pixels
import Testing
import TestSupport

/// Issue 24, item 1's open gap: a PNG's inflating is bounded by its pixels, not by what its zlib stream holds.
/// libpng inflates every byte of image data it is given, after the rows as before them, so image data longer than
/// the rows could need is refused before libpng reads it (`PNGChunks.checkImageData`).
@Suite struct PNGInflateBudgetTests {
    /// Rows complete, then 64 MB more zeros in the same stream (a 400 KB file; a gigabyte in 1 MB took 2.5 s of CPU
    /// before, libpng inflating it all after the last row): refused before libpng reads it.
    @Test func imageDataThatGoesOnAfterTheRowsIsRefusedBeforeInflating() throws {
        let hostile = HostileImages.pngWithTrailingImageData(trailingBytes: 64 << 20)
        let error = #expect(throws: DecodeError.self) { try ImageDecoder.decode(hostile) }
        guard case .corrupt(.png, let reason) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(reason.contains("more than its pixels could need"), "\(reason)")
    }

    /// Image data longer than its rows could need (empty deflate blocks, which inflate to nothing but cost zlib
    /// time: 40 MB of them took 3.4 s around 16x16 pixels) is refused before libpng reads it.
    @Test func imageDataFarLongerThanItsRowsIsRefusedBeforeInflating() throws {
        let hostile = HostileImages.pngWithEmptyDeflateBlocks(emptyBlocks: 20_000)
        let error = #expect(throws: DecodeError.self) { try ImageDecoder.decode(hostile) }
        guard case .corrupt(.png, let reason) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(reason.contains("more than its pixels could need"), "\(reason)")
    }

    /// The bound leaves room for every encoder: stored blocks (the largest honest stream) and a few empty blocks
    /// still decode, and the rows' size is counted per interlace pass.
    @Test func honestStreamsFitTheBound() throws {
        let stored = try ImageDecoder.decode(HostileImages.plainPNG(side: 300))
        #expect(stored.bitmap.width == 300)
        let padded = try ImageDecoder.decode(HostileImages.pngWithEmptyDeflateBlocks(emptyBlocks: 1000))
        #expect(padded.bitmap.pixels.allSatisfy { $0 == 0x80 || $0 == 0xFF })
        // 16x16 grey, 8 bits: 16 rows of 1 + 16 bytes; interlaced, the seven passes' rows (2, 2, 2, 4, 4, 8 and 8
        // rows of a filter byte and 2, 2, 4, 4, 8, 8 and 16 samples).
        let plain = HostileImages.plainPNG()
        #expect(plain.withUnsafeBytes { PNGChunks.rawImageBytes($0) } == 16 * 17)
        var interlaced = plain
        interlaced[28] = 1
        let passes = 2 * 3 + 2 * 3 + 2 * 5 + 4 * 5 + 4 * 9 + 8 * 9 + 8 * 17
        #expect(interlaced.withUnsafeBytes { PNGChunks.rawImageBytes($0) } == passes)
    }
}
