@testable import Codecs
import Pixels
import Testing
import TestSupport

/// Issue 24, item 1: a PNG costs its pixels, whatever else it holds. Ancillary chunks no thumbnail uses (text of
/// every kind, ICC profiles, private and animation chunks) never reach libpng, so they are neither inflated nor
/// kept, in any number, before or after the image data. (`CodecBudgetEndToEndTests` shows the memory it saves.)
@Suite struct PNGChunkBudgetTests {
    /// Chunk types libpng would read, inflate or keep, and types it would skip anyway (which must go just the same).
    static let droppedTypes = ["iTXt", "zTXt", "tEXt", "iCCP", "sPLT", "eXIf", "tIME", "pHYs", "bKGD", "sBIT",
                               "hIST", "acTL", "fcTL", "fdAT", "prVt", "caBX"]

    @Test(arguments: droppedTypes)
    func unusedAncillaryChunksNeverReachLibpng(type: String) throws {
        let hostile = HostileImages.png(chunk: type, count: 40, header: HostileImages.compressedHeader(for: type),
                                        inflatedBytes: 100_000)
        let essential = try #require(hostile.withUnsafeBytes { PNGChunks.essential($0) })
        #expect(essential == HostileImages.plainPNG(), "libpng is given exactly the file without the \(type) chunks")
        let image = try ImageDecoder.decode(hostile)
        #expect(image.bitmap.width == 16 && image.bitmap.height == 16)
        #expect(image.bitmap.pixels.allSatisfy { $0 == 0x80 || $0 == 0xFF }, "grey 0x80, opaque")
    }

    @Test func theChunksThatChangePixelsAreKeptAndNothingIsCopied() throws {
        for type in ["gAMA", "cHRM", "sRGB", "tRNS"] {
            let png = HostileImages.png(chunk: type, count: 1, header: [], inflatedBytes: 4, compressed: false)
            #expect(png.withUnsafeBytes { PNGChunks.essential($0) } == nil, "\(type) is given to libpng")
        }
        #expect(HostileImages.plainPNG().withUnsafeBytes { PNGChunks.essentialCopyBytes($0) } == 0)
    }

    /// A chunk of the issue's size (8 MB of text when inflated) is dropped like a small one, and its copy-free
    /// remainder is what the decode reserves besides the bitmap.
    @Test func theIssuesITXtChunksCostTheirCopyNotTheirText() throws {
        let hostile = HostileImages.png(chunk: "iTXt", count: 8, header: HostileImages.compressedHeader(for: "iTXt"),
                                        inflatedBytes: 7_900_000)
        let plain = HostileImages.plainPNG()
        #expect(try ImageDecoder.memoryCost(of: hostile) == 16 * 16 * 4 + plain.count)
        let image = try ImageDecoder.decode(hostile, options: DecodeOptions(maxMemory: 16 * 16 * 4 + plain.count))
        #expect(image.bitmap.pixels == (try ImageDecoder.decode(plain)).bitmap.pixels)
    }

    /// A chunk that claims more than the file holds (the fuzzer's 399-byte file claimed 1.6 GB of zTXt): libpng
    /// would allocate the claim before finding the data short. A dropped kind is cut off with all after it, and
    /// libpng finds the file short without allocating anything.
    @Test func aChunkClaimingMoreThanTheFileHoldsIsCutOff() throws {
        let hostile = HostileImages.pngWithChunkClaiming(0x6000_0000, type: "zTXt")
        let head = Array(HostileImages.plainPNG().prefix(8 + 25))  // signature and IHDR
        #expect(hostile.withUnsafeBytes { PNGChunks.essential($0) } == head)
        #expect(throws: DecodeError.self) { try ImageDecoder.decode(hostile) }
    }

    /// A damaged chunk structure stops the walk: the rest goes to libpng as it is, which names the damage.
    @Test func aChunkCutShortIsStillLibpngsError() throws {
        let hostile = HostileImages.png(chunk: "zTXt", count: 3, header: HostileImages.compressedHeader(for: "zTXt"),
                                        inflatedBytes: 10_000)
        let cut = Array(hostile.prefix(8 + 25 + 100))  // signature, IHDR, part of the first zTXt
        #expect(throws: DecodeError.self) { try ImageDecoder.decode(cut) }
        let unknownCritical = HostileImages.png(chunk: "QUUX", count: 1, header: [], inflatedBytes: 8,
                                                compressed: false)
        #expect(unknownCritical.withUnsafeBytes { PNGChunks.essential($0) } == nil, "critical chunks are kept")
        #expect(throws: DecodeError.self) { try ImageDecoder.decode(unknownCritical) }
    }
}
