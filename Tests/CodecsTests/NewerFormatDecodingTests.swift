import Codecs
import Foundation
import Pixels
import TestSupport
import Testing

/// HEIC, AVIF and JPEG XL made from chelsea.png (451x300) by Debian's encoders, decoded by libheif and libjxl.
@Suite(.enabled(if: NewerFormatFiles.encodersAvailable, "heif-enc, avifenc or cjxl is missing: run scripts/setup"))
struct NewerFormatDecodingTests {
    let scratch: URL
    let source: Bitmap

    init() throws {
        scratch = try NewerFormatFiles.scratchDirectory()
        source = try ImageDecoder.decodeFile(at: NewerFormatFiles.photos.appendingPathComponent("chelsea.png").path)
            .bitmap
    }

    // No deinit in a struct: each test removes its own files.
    private func removeScratch() { try? FileManager.default.removeItem(at: scratch) }

    /// Each lossy file is within a mean error of 3 (of 255, over 4x4 blocks) of the photo it was made from: what
    /// quality 90 or distance 1 leave; a wrong colour matrix, a swapped channel or a shifted row costs 20 or more.
    @Test(arguments: [
        (NewerFormatFiles.Encoder.heic, ImageFormat.heif, 3.0), (.avif, .avif, 3.0), (.jxl, .jxl, 3.0),
        (.losslessJXL, .jxl, 0.0),
    ])
    func decodesToTheSource(encoder: NewerFormatFiles.Encoder, format: ImageFormat, maxError: Double) throws {
        defer { removeScratch() }
        let path = try NewerFormatFiles.make(encoder, in: scratch)
        let bytes = try ImageDecoder.readFile(at: path)
        #expect(ImageDecoder.sniff(bytes) == format)
        #expect(try ImageDecoder.header(of: bytes) == ImageHeader(format: format, width: 451, height: 300))
        let image = try ImageDecoder.decode(bytes)
        #expect(image.format == format && image.originalWidth == 451 && image.originalHeight == 300)
        #expect(image.bitmap.width == 451 && image.bitmap.height == 300)
        #expect(image.bitmap[10, 10].a == 255)
        #expect(ImageDifference.meanAbsolute(image.bitmap, source, block: 4) <= maxError)
    }

    /// avifenc's `--irot 1` (a quarter turn anticlockwise) is applied by libheif: the picture comes out turned, and
    /// its header says the turned size. With `--imir` as well it comes out mirrored too (libavif 0.11 and libheif
    /// 1.15 disagree on which axis mode 0 names, so either mirror is accepted; the unmirrored picture is not).
    @Test func rotationAndMirroringAreApplied() throws {
        defer { removeScratch() }
        func turned(_ extra: [String]) -> NewerFormatFiles.Encoder {
            NewerFormatFiles.Encoder(fileExtension: "avif") {
                ["avifenc", "--min", "0", "--max", "10", "-s", "8", "--irot", "1"] + extra + [$0, $1]
            }
        }
        // Turned anticlockwise: the source's right column becomes the top row.
        var expected = Bitmap(width: 300, height: 451, fill: RGBA(r: 0, g: 0, b: 0))
        for y in 0..<451 {
            for x in 0..<300 { expected[x, y] = source[450 - y, x] }
        }
        let bytes = try ImageDecoder.readFile(at: try NewerFormatFiles.make(turned([]), in: scratch, name: "t.avif"))
        #expect(try ImageDecoder.header(of: bytes) == ImageHeader(format: .avif, width: 300, height: 451))
        #expect(ImageDifference.meanAbsolute(try ImageDecoder.decode(bytes).bitmap, expected, block: 4) <= 3)

        let mirrored = try ImageDecoder.decodeFile(at: try NewerFormatFiles.make(turned(["--imir", "0"]), in: scratch,
                                                                                    name: "m.avif")).bitmap
        var leftRight = expected, topBottom = expected
        for y in 0..<451 {
            for x in 0..<300 {
                leftRight[x, y] = expected[299 - x, y]
                topBottom[x, y] = expected[x, 450 - y]
            }
        }
        let errors = [leftRight, topBottom].map { ImageDifference.meanAbsolute(mirrored, $0, block: 4) }
        #expect(errors.min()! <= 3)
        #expect(ImageDifference.meanAbsolute(mirrored, expected, block: 4) > 20)
    }

    /// The memory a decode needs comes from the header, and a decode over `maxMemory` is refused before it starts.
    @Test(arguments: [NewerFormatFiles.Encoder.heic, .avif, .jxl])
    func memoryIsCountedFromTheHeader(encoder: NewerFormatFiles.Encoder) throws {
        defer { removeScratch() }
        let bytes = try ImageDecoder.readFile(at: try NewerFormatFiles.make(encoder, in: scratch))
        let cost = try ImageDecoder.memoryCost(of: bytes)
        #expect(cost == 451 * 300 * (encoder.fileExtension == "jxl" ? 20 : 16))
        #expect(throws: DecodeError.needsTooMuchMemory(bytes: cost, limit: cost - 1)) {
            try ImageDecoder.decode(bytes, options: DecodeOptions(maxMemory: cost - 1))
        }
        #expect(throws: DecodeError.imageTooLarge(width: 451, height: 300, limit: 100_000)) {
            try ImageDecoder.decode(bytes, options: DecodeOptions(maxPixels: 100_000))
        }
    }
}
