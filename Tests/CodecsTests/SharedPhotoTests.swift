import Codecs
import Testing

/// The real photos in ../shared/data/images, when that folder is beside the package.
@Suite(.enabled(if: SharedImages.isAvailable, "../shared/data/images is not beside the package"))
struct SharedPhotoTests {
    @Test(arguments: [
        ("astronaut.png", 512, 512), ("camera.png", 512, 512), ("chelsea.png", 451, 300), ("coffee.png", 600, 400),
        ("coins.png", 384, 303), ("horse.png", 400, 328), ("palette_color.png", 10, 10),
        ("hubble_deep_field.jpg", 1000, 872), ("rocket.jpg", 640, 427),
    ])
    func decodesAtFullSize(name: String, width: Int, height: Int) throws {
        let image = try ImageDecoder.decodeFile(at: SharedImages.path(name))
        #expect(image.bitmap.width == width && image.bitmap.height == height)
        #expect(image.originalWidth == width && image.originalHeight == height)
        #expect(image.warning == nil)
        // Not a blank decode: some pixels differ from the first.
        let first = image.bitmap[0, 0]
        #expect((0..<height).contains { y in image.bitmap[width / 2, y] != first })
    }

    @Test(arguments: [
        ("hubble_deep_field.jpg", PixelSize(width: 80, height: 40), PixelSize(width: 125, height: 109)),  // 1/8
        ("rocket.jpg", PixelSize(width: 80, height: 40), PixelSize(width: 80, height: 54)),  // 1/8
        ("rocket.jpg", PixelSize(width: 81, height: 40), PixelSize(width: 160, height: 107)),  // 1/4
        ("rocket.jpg", PixelSize(width: 200, height: 40), PixelSize(width: 240, height: 161)),  // 3/8
    ])
    func jpegScalesDownToTheTarget(name: String, target: PixelSize, expected: PixelSize) throws {
        let image = try ImageDecoder.decodeFile(at: SharedImages.path(name), options: .init(targetSize: target))
        #expect(PixelSize(width: image.bitmap.width, height: image.bitmap.height) == expected)
    }

    /// scikit-image's truncated.jpg ends inside its Huffman tables: there is no scan to draw, so it is an error
    /// (a JPEG cut inside its scan decodes with a warning: see JPEGDecodingTests).
    @Test func photoCutInItsHeadersIsATypedError() throws {
        let error = try #require(throws: DecodeError.self) {
            try ImageDecoder.decodeFile(at: SharedImages.path("truncated.jpg"))
        }
        #expect(error == .corrupt(.jpeg, reason: "the file is cut short: it ends inside its headers, before any "
            + "image data (tjDecompressHeader3: Bogus Huffman table definition)"))
    }
}
