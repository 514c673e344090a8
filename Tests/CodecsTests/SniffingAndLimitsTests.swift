import Codecs
import Foundation
import Testing

@Suite struct SniffingAndLimitsTests {
    @Test(arguments: [
        ("png_named.jpg", ImageFormat.png), ("jpeg_named.gif", .jpeg), ("still.gif", .gif),
        ("lossless_alpha.webp", .webp), ("baseline.jpg", .jpeg),
    ])
    func formatComesFromTheBytesNotTheName(name: String, format: ImageFormat) throws {
        #expect(ImageDecoder.sniff(try Fixtures.bytes(name)) == format)
        #expect(try Fixtures.decode(name).format == format)
    }

    @Test func sniffingRefusesWhatIsNoImage() {
        #expect(ImageDecoder.sniff([UInt8]()) == nil)
        #expect(ImageDecoder.sniff([0xFF, 0xD8]) == nil)  // too short to be sure
        #expect(ImageDecoder.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)) == nil)
        #expect(ImageDecoder.sniff(Array("GIF88a".utf8)) == nil)
    }

    @Test func emptyInputIsATypedError() throws {
        let error = try #require(Fixtures.error(decoding: "empty.jpg"))
        #expect(error == .empty)
        #expect(error.description == "the image data is empty (0 bytes): the file or download has nothing in it")
    }

    @Test func htmlIsNotAnImage() throws {
        let error = try #require(Fixtures.error(decoding: "not_an_image.jpg"))
        #expect(error == .unknownFormat(firstBytes: #"3C 21 44 4F 43 54 59 50 ("<!DOCTYP")"#))
        #expect(error.description == #"not a JPEG, PNG, GIF, WebP, HEIF, AVIF or JPEG XL image: the data starts "#
            + #"with 3C 21 44 4F 43 54 59 50 ("<!DOCTYP")"#)
    }

    @Test func unknownFormatShowsUnprintableBytesAsDots() {
        #expect(throws: DecodeError.unknownFormat(firstBytes: #"00 01 41 ("..A")"#)) {
            try ImageDecoder.decode([0, 1, 0x41] as [UInt8])
        }
    }

    @Test func inputAboveTheByteLimitIsRefusedInMemoryAndOnDisk() throws {
        let options = DecodeOptions(maxBytes: 50)
        let expected = DecodeError.inputTooLarge(bytes: 99, limit: 50)
        #expect(Fixtures.error(decoding: "rgb.png", options: options) == expected)
        #expect(throws: expected) { try ImageDecoder.decode(try Fixtures.bytes("rgb.png"), options: options) }
        #expect(expected.description == "the image data is 99 bytes, above the 50 bytes limit; raise the byte limit "
            + "(DecodeOptions.maxBytes) to decode it")
        #expect(DecodeError.inputTooLarge(bytes: 70 << 20, limit: 64 << 20).description.hasPrefix(
            "the image data is 70 MB, above the 64 MB limit"))
    }

    @Test(arguments: ["baseline.jpg", "rgb.png", "still.gif", "lossless_alpha.webp"])
    func pixelLimitIsCheckedForEveryFormat(name: String) throws {
        #expect(Fixtures.error(decoding: name, options: .init(maxPixels: 383))
            == .imageTooLarge(width: 24, height: 16, limit: 383))
        #expect(Fixtures.error(decoding: name, options: .init(maxPixels: 384)) == nil)
    }

    @Test func decodesData() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("rgb.png")))
        expectCells(try ImageDecoder.decode(data).bitmap, Fixtures.cells, tolerance: 0)
    }

    @Test func missingFileIsATypedError() {
        let path = "/nonexistent/thumbtable/photo.png"
        #expect(throws: DecodeError.unreadable(path: path, reason: "no such file")) {
            try ImageDecoder.decodeFile(at: path)
        }
    }

    @Test func directoryIsNotAnImage() {
        let path = FileManager.default.temporaryDirectory.path
        #expect(throws: DecodeError.unreadable(path: path, reason: "not a regular file (a folder)")) {
            try ImageDecoder.decodeFile(at: path)
        }
    }
}
