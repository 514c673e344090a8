@testable import Codecs
import Pixels
import Testing
import TestSupport

/// Issue 24, item 3: a JPEG's scans are weighed by the blocks each one visits, not counted, and a file whose scans
/// would cost more than `DecodeOptions.maxBlockScans` is refused from its headers, before libjpeg decodes anything.
@Suite struct JPEGScanWorkTests {
    /// The issue's file: 499 scans of end-of-block runs over 8192x8192 grey (about 180 KB), 11 s of CPU before.
    @Test func theIssuesProgressiveFileIsRefusedBeforeDecoding() throws {
        let hostile = HostileImages.progressiveJPEG(side: 8192, scans: 499)
        let work = hostile.withUnsafeBytes { JPEGScanWork(scanning: $0) }
        #expect(work.scans == 499)
        #expect(work.blockScans == 499 * 1024 * 1024)
        #expect(throws: DecodeError.needsTooMuchWork(scans: 499, blockScans: 499 << 20,
                                                      limit: DecodeOptions.defaultMaxBlockScans)) {
            try ImageDecoder.decode(hostile, options: DecodeOptions(targetSize: PixelSize(width: 16, height: 16)))
        }
    }

    /// The weight is scans times blocks: the same 499 scans over a small picture decode, and few scans over a
    /// large one are refused once their blocks add up past the limit.
    @Test func manyScansOverFewBlocksDecodeAndFewScansOverManyBlocksDoNot() throws {
        let small = try ImageDecoder.decode(HostileImages.progressiveJPEG(side: 256, scans: 499))
        #expect(small.bitmap.width == 256 && small.bitmap.height == 256)
        let options = DecodeOptions(maxBlockScans: 40 * 1024 * 1024)
        let large = HostileImages.progressiveJPEG(side: 8192, scans: 41)
        #expect(throws: DecodeError.needsTooMuchWork(scans: 41, blockScans: 41 << 20, limit: 40 << 20)) {
            try ImageDecoder.decode(large, options: options)
        }
    }

    /// Real files weigh what their scans hold: one scan of every block for a baseline file, a handful for a
    /// progressive one, with chroma at its subsampling; damaged files add nothing.
    @Test func realFilesAreWeighedByTheirComponentsBlocks() throws {
        let baseline = try Fixtures.bytes("baseline.jpg").withUnsafeBytes { JPEGScanWork(scanning: $0) }
        #expect(baseline.scans == 1)
        #expect(baseline.blockScans > 0)
        let progressive = try Fixtures.bytes("progressive.jpg").withUnsafeBytes { JPEGScanWork(scanning: $0) }
        #expect(progressive.scans > 1)
        #expect(progressive.blockScans > baseline.blockScans)
        #expect([UInt8]([0xFF, 0xD8, 0xFF, 0xDA]).withUnsafeBytes { JPEGScanWork(scanning: $0) }.blockScans == 0)
    }
}
