import Codecs
import Foundation
@testable import Graphics
import Pixels
import TestSupport
import Testing

/// The sixel encoder, checked by decoding its output back (TestSupport's SixelDecoder, written from the DEC format,
/// not from the encoder) and comparing with the input.
@Suite struct SixelEncoderTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized

    static func photo(_ name: String) throws -> Bitmap {
        try ImageDecoder.decodeFile(at: photos.appendingPathComponent(name).path).bitmap
    }

    /// Four flat quadrants in four colours, 10 x 8 pixels.
    static func quadrants(width: Int = 10, height: Int = 8) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height, fill: RGBA(r: 0, g: 0, b: 0))
        let colours = [RGBA(r: 255, g: 0, b: 0), RGBA(r: 0, g: 200, b: 0), RGBA(r: 20, g: 40, b: 250),
                       RGBA(r: 250, g: 250, b: 250)]
        for y in 0..<height {
            for x in 0..<width { bitmap[x, y] = colours[(y * 2 / height) * 2 + x * 2 / width] }
        }
        return bitmap
    }

    /// The largest difference in any channel of any pixel.
    static func largestDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test func aFlatPictureKeepsItsExactColoursWithoutDithering() throws {
        let input = Self.quadrants()
        let decoded = try SixelDecoder.decode(SixelEncoder.encode(input))
        #expect(decoded.paletteCount == 4)
        #expect((decoded.declaredWidth, decoded.declaredHeight) == (10, 8))
        // Only the palette's whole percents change a channel: at most 255/200, rounded.
        #expect(Self.largestDifference(decoded.bitmap, input) <= 2)
    }

    @Test(arguments: [1, 5, 7, 11, 13])
    func heightsThatAreNotAMultipleOfSixDecodeToTheirSize(height: Int) throws {
        let input = Self.quadrants(width: 9, height: height)
        let bytes = SixelEncoder.encode(input)
        let decoded = try SixelDecoder.decode(bytes)
        #expect((decoded.declaredWidth, decoded.declaredHeight) == (9, height))
        #expect(Self.largestDifference(decoded.bitmap, input) <= 2, "every pixel drawn, none outside")
        #expect(bytes.filter { $0 == UInt8(ascii: "-") }.count == (height + 5) / 6 - 1, "one band per six rows")
    }

    @Test func runsOfOneSixelAreCompressed() throws {
        let input = Bitmap(width: 300, height: 12, fill: RGBA(r: 10, g: 120, b: 200))
        let bytes = SixelEncoder.encode(input)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("!300~"), "a full band of one colour is one repeat: \(text)")
        #expect(bytes.count < 60, "two bands of 300 columns took \(bytes.count) bytes")
        let decoded = try SixelDecoder.decode(bytes)
        #expect(decoded.repeatCount == 2)
        #expect(Self.largestDifference(decoded.bitmap, input) <= 2)
    }

    @Test(arguments: [256, 64, 16])
    func aPhotoGetsAPaletteWithinTheLimitAndLooksLikeItself(maxColors: Int) throws {
        let input = try Self.photo("astronaut.png")
        let bytes = SixelEncoder.encode(input, options: .init(maxColors: maxColors))
        let decoded = try SixelDecoder.decode(bytes)
        #expect(decoded.paletteCount <= maxColors)
        #expect(decoded.paletteCount > maxColors / 2, "a photo uses most of the palette it may have")
        #expect(decoded.bitmap.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 },
                "an opaque photo has every pixel drawn")
        // Judged over 4x4 blocks, as the eye averages dithering. Measured on this 512x512 photo: 256 colours 1.6
        // (400 932 bytes), 64 colours 2.3, 16 colours 5.2; the same output against the photo with red and blue
        // swapped is 32 away, against flat grey 70.
        let difference = ImageDifference.meanAbsolute(decoded.bitmap, input, block: 4)
        #expect(difference < (maxColors >= 64 ? 4 : 8), "mean block difference \(difference)")
        var swapped = input
        for i in stride(from: 0, to: swapped.pixels.count, by: 4) { swapped.pixels.swapAt(i, i + 2) }
        #expect(ImageDifference.meanAbsolute(decoded.bitmap, swapped, block: 4) > 20, "the measure tells pictures apart")
    }

    @Test func ditheringBringsTheAverageColourCloserThanNearestColourAlone() throws {
        // A grey ramp with a 4-colour palette: nearest colour alone makes four flat bands, the dithered picture
        // keeps the ramp's local averages.
        var ramp = Bitmap(width: 256, height: 24, fill: RGBA(r: 0, g: 0, b: 0))
        for y in 0..<24 {
            for x in 0..<256 { ramp[x, y] = RGBA(r: UInt8(x), g: UInt8(x), b: UInt8(x)) }
        }
        func difference(dither: Bool) throws -> Double {
            let bytes = SixelEncoder.encode(ramp, options: .init(maxColors: 4, dither: dither))
            return ImageDifference.meanAbsolute(try SixelDecoder.decode(bytes).bitmap, ramp, block: 8)
        }
        let dithered = try difference(dither: true), banded = try difference(dither: false)
        #expect(dithered < banded * 0.5, "dithered \(dithered), nearest colour only \(banded)")
    }

    @Test func transparentPixelsAreNotDrawnUnlessABackgroundIsGiven() throws {
        var input = Self.quadrants()
        for y in 0..<8 { for x in 0..<5 { input[x, y].a = 0 } }
        let kept = try SixelDecoder.decode(SixelEncoder.encode(input)).bitmap
        #expect((0..<8).allSatisfy { y in (0..<5).allSatisfy { kept[$0, y].a == 0 } }, "left half undrawn")
        #expect((0..<8).allSatisfy { y in (5..<10).allSatisfy { kept[$0, y].a == 255 } }, "right half drawn")

        let background = RGBA(r: 0, g: 0, b: 100)
        let blended = try SixelDecoder.decode(SixelEncoder.encode(input, options: .init(background: background)))
        #expect(blended.bitmap[0, 0] == RGBA(r: 0, g: 0, b: 99), "drawn in the background colour (percent-rounded)")
        #expect(blended.bitmap[9, 7].a == 255)
    }

    @Test func anEmptyBitmapGivesNoBytesAndASixelStartsAndEndsAsADCS() {
        #expect(SixelEncoder.encode(Bitmap(width: 0, height: 0, pixels: [])).isEmpty)
        let bytes = SixelEncoder.encode(Self.quadrants())
        #expect(Array(bytes.prefix(2)) == [0x1B, UInt8(ascii: "P")])
        #expect(Array(bytes.suffix(2)) == [0x1B, UInt8(ascii: "\\")])
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"1;1;10;8#"), "raster attributes: 1:1, 10x8")
        #expect(bytes.dropFirst().dropLast(2).allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "one ESC each end, no controls")
    }
}
