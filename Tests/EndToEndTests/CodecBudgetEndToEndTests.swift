import Foundation
import Testing
import TestSupport

/// Issue 24, items 1 and 3, as a user runs them: `thumbtable render` of a file made to cost far more than its
/// pixels. Peak memory is the run's own (measured by GNU time, `BinaryRun.gnuTime`), so nothing else moves it.
@Suite struct CodecBudgetEndToEndTests {
    /// 64 iTXt chunks of 7.9 MB of text each around a 16x16 picture (about 1.6 MB of file): libpng inflated and
    /// kept the 32 before the image data, 250 MB, in the old build. The picture is drawn, and the run stays near
    /// what rendering any 16x16 PNG costs (about 30 MB).
    @Test func aPNGFullOfTextChunksCostsItsPixels() throws {
        let hostile = HostileImages.png(chunk: "iTXt", count: 32, header: HostileImages.compressedHeader(for: "iTXt"),
                                        inflatedBytes: 7_900_000)
        let file = try Self.write(hostile, name: "text-chunks.png")
        defer { unlink(file) }
        let run = try BinaryRun.run(["render", file, "--size", "8x4"], measuringPeak: true)
        #expect(run.status == 0, "\(run.stderrText)")
        #expect(!run.stdout.isEmpty, "the picture is drawn")
        #expect(run.peakRSSKilobytes < 128 * 1024, "peak \(run.peakRSSKilobytes / 1024) MB")
    }

    /// A chunk that claims 1.6 GB in a file of a few hundred bytes (what the fuzzer found): libpng allocated the
    /// claim before finding the data short, 1.6 GB in the old build. The file is refused as damaged, near 30 MB.
    @Test func aPNGChunkClaimingGigabytesIsNeverAllocated() throws {
        let file = try Self.write(HostileImages.pngWithChunkClaiming(0x6000_0000, type: "zTXt"), name: "claim.png")
        defer { unlink(file) }
        let run = try BinaryRun.run(["render", file, "--size", "8x4"], measuringPeak: true)
        #expect(run.status != 0)
        #expect(run.stderrText.contains("the PNG data is damaged"), "\(run.stderrText)")
        #expect(run.peakRSSKilobytes < 128 * 1024, "peak \(run.peakRSSKilobytes / 1024) MB")
    }

    /// The JPEG (499 scans over 8192x8192, 11 s of CPU in the old build) is refused from its headers with
    /// a message that says why and what to raise, instead of being decoded.
    @Test func aJPEGWhoseScansWouldTakeSecondsIsRefusedAndSaysWhy() throws {
        let file = try Self.write(HostileImages.progressiveJPEG(side: 8192, scans: 499), name: "scans.jpg")
        defer { unlink(file) }
        let run = try BinaryRun.run(["render", file, "--size", "8x4"])
        #expect(run.status != 0)
        #expect(run.stderrText.contains("499 scans would decode 523 million blocks"), "\(run.stderrText)")
        #expect(run.stderrText.contains("DecodeOptions.maxBlockScans"), "\(run.stderrText)")
    }

    private static func write(_ bytes: [UInt8], name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tt-\(UUID().uuidString)-\(name)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
