import Codecs
import Foundation
import Pixels
import TestSupport
import Testing

/// Cut, flipped and hostile HEIC, AVIF and JPEG XL files: a typed error naming the format, never a crash, a hang or
/// a decode beyond the limits.
@Suite(.enabled(if: NewerFormatFiles.encodersAvailable, "heif-enc, avifenc or cjxl is missing: run scripts/setup"))
struct NewerFormatBadInputTests {
    let scratch: URL

    init() throws { scratch = try NewerFormatFiles.scratchDirectory() }

    private func made(_ encoder: NewerFormatFiles.Encoder) throws -> [UInt8] {
        defer { try? FileManager.default.removeItem(at: scratch) }
        return try ImageDecoder.readFile(at: try NewerFormatFiles.make(encoder, in: scratch))
    }

    /// Cut anywhere, a file is refused with the format's name in the message: at its headers, in its boxes, in its
    /// coded pixels.
    @Test(arguments: [NewerFormatFiles.Encoder.heic, .avif, .jxl])
    func cutFilesAreTypedErrors(encoder: NewerFormatFiles.Encoder) throws {
        let bytes = try made(encoder)
        let format = try #require(ImageDecoder.sniff(bytes))
        for length in [40, 200, bytes.count / 2, bytes.count - 1] {
            let error = try #require(throws: DecodeError.self, "cut to \(length) bytes") {
                try ImageDecoder.decode(Array(bytes.prefix(length)))
            }
            #expect(error.description.contains(format.displayName), "cut to \(length) bytes: \(error)")
        }
    }

    /// Bytes flipped all over a file (every 101st from the 64th on, a different pattern each round) either decode to
    /// a picture of the declared size or fail with a message naming the format.
    @Test(arguments: [NewerFormatFiles.Encoder.heic, .avif, .jxl])
    func flippedBytesDecodeOrFailCleanly(encoder: NewerFormatFiles.Encoder) throws {
        let bytes = try made(encoder)
        let format = try #require(ImageDecoder.sniff(bytes))
        for round in 0..<8 {
            var damaged = bytes
            for index in stride(from: 64 + round * 13, to: damaged.count, by: 101) { damaged[index] ^= 0x5A }
            do {
                let image = try ImageDecoder.decode(damaged)
                #expect(image.bitmap.width > 0 && image.bitmap.pixels.count == image.bitmap.width
                        * image.bitmap.height * 4)
            } catch {
                #expect(error.description.contains(format.displayName), "round \(round): \(error)")
            }
        }
    }

    /// A grid naming 10,000 tiles is refused from its boxes: libheif would decode every tile, however few bytes
    /// each has.
    @Test func gridOfTenThousandTilesIsRefused() {
        #expect(throws: DecodeError.unsupported(.heif, reason: "its grid declares 10000 tiles, above the 1024 one "
                                                    + "image may have")) {
            try ImageDecoder.decode(HostileHEIF.grid(tiles: 10_000))
        }
        #expect(throws: DecodeError.self) { try ImageDecoder.memoryCost(of: HostileHEIF.grid(tiles: 10_000)) }
    }

    /// An AVIF whose properties declare 65535x65535 is refused by libheif's own ceiling as it reads the boxes; one of
    /// 20000x20000 (within libheif's ceiling) by the pixel limit: both before any pixel is decoded.
    @Test func avifDeclaringHugeSizesIsRefused() throws {
        let avif = try made(.avif)
        let huge = HostileHEIF.declaring(width: 65535, height: 65535, in: avif)
        let error = try #require(throws: DecodeError.self) { try ImageDecoder.decode(huge) }
        #expect(error == .unsupported(.avif, reason: "heif_context_read_from_memory: Memory allocation error: "
            + "Security limit exceeded: Image size 65535x65535 exceeds the maximum image size 32768x32768"),
                "\(error)")
        let large = HostileHEIF.declaring(width: 20000, height: 20000, in: avif)
        #expect(throws: DecodeError.imageTooLarge(width: 20000, height: 20000, limit: 100_000_000)) {
            try ImageDecoder.decode(large)
        }
    }
}
