import Codecs
import Testing

/// Issue 25, item 4: an image's header is read once (`EncodedImage`), and what the cost, the work and the decoder
/// take from it is what they read from the bytes themselves.
@Suite struct EncodedImageTests {
    static let fixtures = ["progressive.jpg", "orientation_6.jpg", "cmyk_adobe.jpg", "interlaced.png", "rgba16.png",
                           "still.gif", "animated.gif", "lossless_alpha.webp", "lossy_alpha.webp", "animated.webp"]

    @Test(arguments: fixtures) func plansAndDecodesAsTheBytesDo(name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let image = EncodedImage(bytes)
        let options = DecodeOptions(targetSize: PixelSize(width: 24, height: 16), keepsAnimationFrames: false)
        #expect(image.header == (try ImageDecoder.header(of: bytes)))
        #expect(ImageDecoder.memoryCost(of: image, options: options)
            == (try ImageDecoder.memoryCost(of: bytes, options: options)))
        #expect(ImageDecoder.decodeWork(of: image) == ImageDecoder.decodeWork(of: bytes))
        let decoded = try ImageDecoder.decode(image, options: options)
        let fromBytes = try ImageDecoder.decode(bytes, options: options)
        #expect(decoded.bitmap == fromBytes.bitmap)
        #expect(decoded.originalWidth == fromBytes.originalWidth && decoded.originalHeight == fromBytes.originalHeight)
    }

    @Test func anImageWithoutAHeaderFailsAsItsBytesDo() throws {
        let bytes = try Fixtures.bytes("not_an_image.jpg")
        let image = EncodedImage(bytes)
        #expect(image.header == nil)
        #expect(ImageDecoder.memoryCost(of: image) == 0)
        #expect(ImageDecoder.decodeWork(of: image) == 0)
        let fromImage = #expect(throws: DecodeError.self) { try ImageDecoder.decode(image) }
        let fromBytes = #expect(throws: DecodeError.self) { try ImageDecoder.decode(bytes) }
        #expect(fromImage?.description == fromBytes?.description)
    }

    @Test func aDecodeLimitStillApplies() throws {
        let image = EncodedImage(try Fixtures.bytes("progressive.jpg"))
        let error = #expect(throws: DecodeError.self) {
            try ImageDecoder.decode(image, options: DecodeOptions(maxBytes: 100))
        }
        guard case .inputTooLarge = error else {
            Issue.record("expected inputTooLarge, got \(String(describing: error))")
            return
        }
    }

    #if DEBUG
    @Test func planningAndDecodingReadTheHeaderOnce() throws {
        let bytes = try Fixtures.bytes("progressive.jpg")
        let reads = HeaderReadCount()
        try HeaderReadCount.$current.withValue(reads) {
            let image = EncodedImage(bytes)
            _ = ImageDecoder.memoryCost(of: image)
            _ = ImageDecoder.decodeWork(of: image)
            _ = try ImageDecoder.decode(image)
        }
        #expect(reads.count == 1)
        // The counter counts: the same steps on bytes read the header at least three times.
        let byBytes = HeaderReadCount()
        try HeaderReadCount.$current.withValue(byBytes) {
            _ = try ImageDecoder.header(of: bytes)
            _ = try ImageDecoder.memoryCost(of: bytes)
            _ = ImageDecoder.decodeWork(of: bytes)
        }
        #expect(byBytes.count == 3)
    }
    #endif
}
