import Codecs
import Foundation
import Pixels
import TestSupport
import Testing

/// Issue 30, item 2: a JPEG's EXIF thumbnail is decoded instead of the image when it has the pixels the target
/// needs, with the image's orientation and aspect ratio; otherwise, and whenever it is damaged, the image is.
///
/// The image is red and its thumbnail blue (or blue and green halves), so the pixels show which was decoded.
@Suite(.enabled(if: ExifThumbnailFiles.exiftoolAvailable, "exiftool is missing: run scripts/setup"))
struct EmbeddedThumbnailTests {
    static let red = RGBA(r: 220, g: 30, b: 30), blue = RGBA(r: 30, g: 30, b: 220), green = RGBA(r: 30, g: 200, b: 30)

    /// A red JPEG of `size` carrying `thumbnail`.
    private func camera(_ size: PixelSize = PixelSize(width: 1600, height: 1200), thumbnail: [UInt8],
                        orientation: Int? = nil) throws -> [UInt8] {
        let scratch = try NewerFormatFiles.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        return try ExifThumbnailFiles.make(Bitmap(width: size.width, height: size.height, fill: Self.red),
                                           thumbnail: thumbnail, orientation: orientation, in: scratch)
    }

    private static func jpeg(_ size: PixelSize, _ colour: RGBA) throws -> [UInt8] {
        try JPEGEncoder.encode(Bitmap(width: size.width, height: size.height, fill: colour))
    }

    private static func isClose(_ pixel: RGBA, to colour: RGBA) -> Bool {
        abs(Int(pixel.r) - Int(colour.r)) < 24 && abs(Int(pixel.g) - Int(colour.g)) < 24
            && abs(Int(pixel.b) - Int(colour.b)) < 24
    }

    private static func decode(_ bytes: [UInt8], target: PixelSize?) throws -> DecodedImage {
        try ImageDecoder.decode(EncodedImage(bytes), options: DecodeOptions(targetSize: target,
                                                                           keepsAnimationFrames: false))
    }

    @Test func aThumbnailThatCoversTheTargetIsDecodedInstead() throws {
        let bytes = try camera(thumbnail: Self.jpeg(PixelSize(width: 160, height: 120), Self.blue))
        #expect(EncodedImage(bytes).embeddedThumbnailSize == PixelSize(width: 160, height: 120))
        let image = try Self.decode(bytes, target: PixelSize(width: 80, height: 60))
        #expect(image.fromEmbeddedThumbnail)
        #expect(Self.isClose(image.bitmap[image.bitmap.width / 2, image.bitmap.height / 2], to: Self.blue))
        #expect(image.bitmap.width <= 160 && image.bitmap.width >= 80, "DCT-scaled within the thumbnail")
        #expect(image.originalWidth == 1600 && image.originalHeight == 1200, "the image's size, not the thumbnail's")
    }

    @Test func aThumbnailSmallerThanTheTargetIsNotEnlarged() throws {
        let bytes = try camera(thumbnail: Self.jpeg(PixelSize(width: 160, height: 120), Self.blue))
        for target in [PixelSize(width: 161, height: 120), PixelSize(width: 400, height: 300), nil] {
            let image = try Self.decode(bytes, target: target)
            #expect(!image.fromEmbeddedThumbnail, "target \(String(describing: target))")
            #expect(Self.isClose(image.bitmap[0, 0], to: Self.red))
            #expect(image.bitmap.width >= (target?.width ?? 1600))
        }
    }

    /// A thumbnail of another shape is of another picture (or letterboxed): not used, whatever its size.
    @Test func aThumbnailOfAnotherAspectRatioIsNotUsed() throws {
        let bytes = try camera(thumbnail: Self.jpeg(PixelSize(width: 160, height: 160), Self.blue))
        let image = try Self.decode(bytes, target: PixelSize(width: 40, height: 30))
        #expect(!image.fromEmbeddedThumbnail)
        #expect(Self.isClose(image.bitmap[0, 0], to: Self.red))
    }

    /// The EXIF thumbnail is stored as the image is, so the image's orientation turns it too.
    @Test func aRotatedImagesThumbnailIsTurnedTheSameWay() throws {
        let thumbnail = try JPEGEncoder.encode(ExifThumbnailFiles.halves(PixelSize(width: 160, height: 120),
                                                                         left: Self.blue, right: Self.green))
        let bytes = try camera(thumbnail: thumbnail, orientation: 6)
        #expect(EncodedImage(bytes).embeddedThumbnailSize == PixelSize(width: 120, height: 160))
        let image = try Self.decode(bytes, target: PixelSize(width: 60, height: 80))
        #expect(image.fromEmbeddedThumbnail)
        #expect(image.originalWidth == 1200 && image.originalHeight == 1600)
        #expect(image.bitmap.height > image.bitmap.width)
        // Orientation 6 turns the stored picture a quarter clockwise: its left half lands on top.
        #expect(Self.isClose(image.bitmap[image.bitmap.width / 2, image.bitmap.height / 4], to: Self.blue))
        #expect(Self.isClose(image.bitmap[image.bitmap.width / 2, image.bitmap.height * 3 / 4], to: Self.green))
        #expect(!(try Self.decode(bytes, target: PixelSize(width: 140, height: 105))).fromEmbeddedThumbnail,
                "the displayed thumbnail is 120 wide, though it is stored 160 wide")
    }

    /// Cut, flipped, not a JPEG, pointing outside the file, larger than the image: the image is decoded, in full
    /// colour and size, and nothing crashes.
    @Test func aDamagedThumbnailFallsBackToTheImage() throws {
        let thumbnail = try Self.jpeg(PixelSize(width: 160, height: 120), Self.blue)
        let bytes = try camera(thumbnail: thumbnail)
        let at = try #require(ExifThumbnailFiles.range(of: thumbnail, in: bytes))
        let entry = try #require(ExifThumbnailFiles.thumbnailOffsetEntry(in: bytes))
        let cut = try camera(thumbnail: Array(thumbnail.prefix(thumbnail.count * 2 / 3)))
        var flipped = bytes, notJPEG = bytes, outside = bytes
        for index in stride(from: at.upperBound - at.count / 3, to: at.upperBound - 2, by: 7) { flipped[index] ^= 0xA5 }
        notJPEG[at.lowerBound + 1] = 0x00
        outside.replaceSubrange(entry.at..<entry.at + 4, with: entry.bigEndian ? [0x7F, 0, 0, 0] : [0, 0, 0, 0x7F])
        for (name, damaged) in [("cut", cut), ("flipped", flipped), ("not a JPEG", notJPEG), ("outside", outside)] {
            let image = try Self.decode(damaged, target: PixelSize(width: 80, height: 60))
            #expect(!image.fromEmbeddedThumbnail, "\(name)")
            #expect(Self.isClose(image.bitmap[0, 0], to: Self.red), "\(name)")
            #expect(image.warning == nil, "\(name): the image itself is whole")
        }
    }

    @Test func aThumbnailLargerThanTheImageIsNotUsed() throws {
        let bytes = try camera(PixelSize(width: 400, height: 300),
                               thumbnail: Self.jpeg(PixelSize(width: 800, height: 600), Self.blue))
        let image = try Self.decode(bytes, target: PixelSize(width: 80, height: 60))
        #expect(!image.fromEmbeddedThumbnail)
        #expect(Self.isClose(image.bitmap[0, 0], to: Self.red))
    }

    /// The memory reserved still covers the image (a damaged thumbnail falls back to it in the same decode), and
    /// the work the long-decode lane judges by is the thumbnail's.
    @Test func theWorkIsTheThumbnailsAndTheMemoryCoversTheImage() throws {
        let bytes = try camera(thumbnail: Self.jpeg(PixelSize(width: 160, height: 120), Self.blue))
        let image = EncodedImage(bytes)
        let small = DecodeOptions(targetSize: PixelSize(width: 80, height: 60), keepsAnimationFrames: false)
        let large = DecodeOptions(targetSize: PixelSize(width: 800, height: 600), keepsAnimationFrames: false)
        #expect(ImageDecoder.decodeWork(of: image, options: small) * 50 < ImageDecoder.decodeWork(of: image,
                                                                                                 options: large))
        #expect(ImageDecoder.decodeWork(of: image, options: large) == ImageDecoder.decodeWork(of: image))
        let fullCost = ImageDecoder.memoryCost(of: EncodedImage(try Self.jpeg(PixelSize(width: 1600, height: 1200),
                                                                              Self.red)), options: small)
        #expect(ImageDecoder.memoryCost(of: image, options: small) == fullCost)
    }
}

/// A HEIC's thumbnail item (`heif-enc -t`) is decoded when it covers the target, the primary image otherwise.
@Suite(.enabled(if: NewerFormatFiles.encodersAvailable, "heif-enc, avifenc or cjxl is missing: run scripts/setup"))
struct HEIFThumbnailTests {
    /// A size the 128-wide thumbnail item covers.
    static let thumbnailTarget = PixelSize(width: 64, height: 40)

    /// coffee.png (600x400) as HEIC with a thumbnail item at most 128 wide.
    private static func made() throws -> [UInt8] {
        let scratch = try NewerFormatFiles.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let withThumbnail = NewerFormatFiles.Encoder(fileExtension: "heic") {
            ["heif-enc", "-q", "60", "-t", "128", "-o", $1, $0]
        }
        return try ImageDecoder.readFile(at: try NewerFormatFiles.make(withThumbnail, from: "coffee.png", in: scratch))
    }

    @Test func aThumbnailItemThatCoversTheTargetIsDecodedInstead() throws {
        let bytes = try Self.made()
        let encoded = EncodedImage(bytes)
        let thumbnail = try #require(encoded.embeddedThumbnailSize)
        #expect(thumbnail.width == 128 && (84...86).contains(thumbnail.height))
        let small = try ImageDecoder.decode(encoded, options: DecodeOptions(targetSize: Self.thumbnailTarget))
        #expect(small.fromEmbeddedThumbnail)
        #expect(small.bitmap.width == thumbnail.width && small.originalWidth == 600 && small.originalHeight == 400)
        let full = try ImageDecoder.decode(encoded,
                                           options: DecodeOptions(targetSize: PixelSize(width: 300, height: 200)))
        #expect(!full.fromEmbeddedThumbnail && full.bitmap.width == 600)
        // The thumbnail is the same picture: the mean difference against the full image, both at 128 wide, is small.
        let resized = ImageDifference.resized(full.bitmap, width: small.bitmap.width, height: small.bitmap.height)
        #expect(ImageDifference.meanAbsolute(small.bitmap, resized, block: 8) < 12)
    }

    /// Cut or with bytes flipped all over (thumbnail item and image alike), a HEIC asked for at thumbnail size
    /// decodes to a whole bitmap or fails with a message naming the format.
    @Test func aDamagedFileWithAThumbnailItemDecodesOrFailsCleanly() throws {
        let bytes = try Self.made()
        var damaged: [[UInt8]] = [40, 400, bytes.count / 2, bytes.count - 1].map { Array(bytes.prefix($0)) }
        for round in 0..<6 {
            var flipped = bytes
            for index in stride(from: 64 + round * 13, to: flipped.count, by: 101) { flipped[index] ^= 0x5A }
            damaged.append(flipped)
        }
        for (index, file) in damaged.enumerated() {
            do {
                let image = try ImageDecoder.decode(EncodedImage(file),
                                                    options: DecodeOptions(targetSize: Self.thumbnailTarget))
                let bitmap = image.bitmap
                #expect(bitmap.width > 0 && bitmap.pixels.count == bitmap.width * bitmap.height * 4)
            } catch {
                #expect(error.description.contains("HEIF"), "file \(index): \(error)")
            }
        }
    }
}
