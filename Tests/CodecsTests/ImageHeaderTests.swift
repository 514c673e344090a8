import Codecs
import Testing

@Suite struct ImageHeaderTests {
    static let decodable = [
        "baseline.jpg", "progressive.jpg", "grey.jpg", "cmyk_adobe.jpg", "cmyk_plain.jpg", "orientation_1.jpg",
        "orientation_2.jpg", "orientation_3.jpg", "orientation_4.jpg", "orientation_5.jpg", "orientation_6.jpg",
        "orientation_7.jpg", "orientation_8.jpg", "orientation_6_motorola.jpg", "rgb.png", "rgba.png", "rgba16.png",
        "grey.png", "grey_alpha.png", "palette.png", "palette_trns.png", "interlaced.png", "still.gif",
        "animated.gif", "lossless_alpha.webp", "lossy_alpha.webp", "animated.webp", "png_named.jpg",
    ]

    @Test(arguments: decodable)
    func headerSaysWhatDecodingFinds(name: String) throws {
        // Given a file that decodes, when only its header is read, then it names the same format and full size.
        let decoded = try Fixtures.decode(name)
        let header = try ImageDecoder.header(of: try Fixtures.bytes(name))
        #expect(header == ImageHeader(format: decoded.format, width: decoded.originalWidth,
                                      height: decoded.originalHeight))
    }

    @Test func rotatedJPEGReportsTheUprightSize() throws {
        // Stored 16x24 with orientation 6: shown 24x16.
        let header = try ImageDecoder.header(of: try Fixtures.bytes("orientation_6.jpg"))
        #expect(header.width == 24 && header.height == 16)
    }

    @Test func giantPNGIsReadFromItsHeaderWithoutRefusal() throws {
        // The limits are decode's business: the header reports what the file claims.
        let header = try ImageDecoder.header(of: try Fixtures.bytes("giant.png"))
        #expect(header.format == .png && header.width == 100_000 && header.height == 100_000)
    }

    @Test func emptyAndUnknownInputsAreTypedErrors() {
        #expect(throws: DecodeError.empty) { try ImageDecoder.header(of: [UInt8]()) }
        #expect(throws: DecodeError.unknownFormat(firstBytes: #"00 01 41 ("..A")"#)) {
            try ImageDecoder.header(of: [0, 1, 0x41] as [UInt8])
        }
    }

    @Test(arguments: ["header_only.jpg", "rgb.png", "still.gif"])
    func dataCutInsideTheHeaderIsCorrupt(name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let cut = Array(bytes.prefix(name.hasSuffix(".jpg") ? 20 : 9))
        #expect {
            try ImageDecoder.header(of: cut)
        } throws: { error in
            guard case .corrupt = error as? DecodeError else { return false }
            return true
        }
    }
}
