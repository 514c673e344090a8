@testable import Codecs
import Pixels
import Testing

/// Every PNG colour type at every bit depth the specification allows, interlaced (Adam7) and not: each decodes to
/// the pixels its samples say, and an interlaced file decodes to exactly the pixels of its non-interlaced twin.
@Suite struct PNGColourTypeTests {
    /// A colour type and one of its legal bit depths.
    struct Kind: Sendable, CustomTestStringConvertible {
        var colourType: UInt8
        var bitDepth: Int

        /// Samples a pixel: 1 grey, 3 RGB, 1 palette index, 2 grey+alpha, 4 RGBA.
        var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colourType)]! }
        var testDescription: String {
            "\(["grey", "", "RGB", "palette", "grey+alpha", "", "RGBA"][Int(colourType)]) \(bitDepth)-bit"
        }
    }

    static let kinds: [Kind] = [1, 2, 4, 8, 16].map { Kind(colourType: 0, bitDepth: $0) }
        + [8, 16].map { Kind(colourType: 2, bitDepth: $0) }
        + [1, 2, 4, 8].map { Kind(colourType: 3, bitDepth: $0) }
        + [8, 16].flatMap { [Kind(colourType: 4, bitDepth: $0), Kind(colourType: 6, bitDepth: $0)] }

    /// 13x11 leaves every Adam7 pass a partial block and rows that end inside a byte; 3x2 and 1x1 leave some passes
    /// empty (they are not stored at all).
    static let sizes = [PixelSize(width: 13, height: 11), PixelSize(width: 3, height: 2), PixelSize(width: 1, height: 1)]

    @Test(arguments: kinds)
    func interlacedAndPlainTwinsDecodeToTheExpectedPixels(kind: Kind) throws {
        for size in Self.sizes {
            // Given the same picture stored plain and Adam7-interlaced
            let plain = Self.png(kind, size: size, interlaced: false)
            let interlaced = Self.png(kind, size: size, interlaced: true)

            // When both are decoded
            let plainBitmap = try ImageDecoder.decode(plain).bitmap
            let interlacedBitmap = try ImageDecoder.decode(interlaced).bitmap

            // Then both hold every pixel the samples say, and so are identical
            let expected = Self.expectedBitmap(kind, size: size)
            for (name, bitmap) in [("plain", plainBitmap), ("interlaced", interlacedBitmap)] {
                let wrong = (0..<(size.width * size.height)).filter { i in
                    bitmap[i % size.width, i / size.width] != expected[i % size.width, i / size.width]
                }
                #expect(bitmap.width == size.width && bitmap.height == size.height)
                #expect(wrong.isEmpty, """
                    \(name) \(size): pixels \(wrong.prefix(4).map { ($0 % size.width, $0 / size.width) }) are \
                    \(wrong.prefix(4).map { bitmap[$0 % size.width, $0 / size.width] }), want \
                    \(wrong.prefix(4).map { expected[$0 % size.width, $0 / size.width] })
                    """)
            }
            #expect(plainBitmap == interlacedBitmap, "twins differ at \(size)")
        }
    }

    @Test func truncatedSixteenBitInterlacedIsATypedError() throws {
        let png = Self.png(Kind(colourType: 6, bitDepth: 16), size: PixelSize(width: 13, height: 11),
                           interlaced: true)
        let error = #expect(throws: DecodeError.self) { try ImageDecoder.decode(Array(png.prefix(png.count / 2))) }
        guard case .corrupt(.png, let reason)? = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("libpng: "), "\(reason)")
    }

    // MARK: The picture

    /// Sample `channel` of pixel (x, y), in 0 ..< 2^bitDepth: every value differs from its neighbours', 16-bit values
    /// are mostly not multiples of 257 (so rounding to 8 bits shows), and alpha runs through 0 and the maximum.
    static func sample(_ kind: Kind, x: Int, y: Int, channel: Int) -> Int {
        let levels = 1 << kind.bitDepth
        return (x * 4099 + y * 6151 + channel * 771 + x * y * 31 + (x + y) % 3) % levels
    }

    /// The palette of palette kinds: every index a distinct colour, and through tRNS a distinct alpha (index 0 fully
    /// transparent).
    static func paletteEntry(_ index: Int) -> RGBA {
        RGBA(r: UInt8(index * 37 % 256), g: UInt8(255 - index * 11 % 256), b: UInt8(index * 91 % 256),
             a: UInt8(index * 67 % 256))
    }

    /// A sample at `bitDepth` as the 8-bit value a decoder must give: scaled up exactly (1 becomes 255 at 1 bit, 85
    /// a step at 2 bits, 17 at 4) or rounded down from 16 bits (v / 257 to the nearest).
    static func eightBit(_ value: Int, bitDepth: Int) -> UInt8 {
        bitDepth == 16 ? UInt8((value * 255 + 32767) / 65535) : UInt8(value * 255 / ((1 << bitDepth) - 1))
    }

    static func expectedBitmap(_ kind: Kind, size: PixelSize) -> Bitmap {
        var bitmap = Bitmap(width: size.width, height: size.height,
                            pixels: [UInt8](repeating: 0, count: size.width * size.height * 4))
        for y in 0..<size.height {
            for x in 0..<size.width {
                let v = (0..<kind.channels).map { eightBit(sample(kind, x: x, y: y, channel: $0),
                                                           bitDepth: kind.bitDepth) }
                switch kind.colourType {
                case 0: bitmap[x, y] = RGBA(r: v[0], g: v[0], b: v[0])
                case 2: bitmap[x, y] = RGBA(r: v[0], g: v[1], b: v[2])
                case 3: bitmap[x, y] = paletteEntry(sample(kind, x: x, y: y, channel: 0))
                case 4: bitmap[x, y] = RGBA(r: v[0], g: v[0], b: v[0], a: v[1])
                default: bitmap[x, y] = RGBA(r: v[0], g: v[1], b: v[2], a: v[3])
                }
            }
        }
        return bitmap
    }

    // MARK: PNG bytes

    /// The picture as a PNG: rows packed at the bit depth (big-endian 16-bit samples), unfiltered, stored
    /// uncompressed; interlaced as seven Adam7 passes, each a small image of every n-th pixel from an offset.
    static func png(_ kind: Kind, size: PixelSize, interlaced: Bool) -> [UInt8] {
        let passes = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var raw: [UInt8] = []
        for (x0, y0, dx, dy) in passes where x0 < size.width && y0 < size.height {
            for y in stride(from: y0, to: size.height, by: dy) {
                raw.append(0)  // filter type 0: none
                var bits = BitWriter()
                for x in stride(from: x0, to: size.width, by: dx) {
                    for channel in 0..<kind.channels {
                        bits.append(sample(kind, x: x, y: y, channel: channel), width: kind.bitDepth)
                    }
                }
                raw += bits.bytes
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", bigEndian(size.width) + bigEndian(size.height)
            + [UInt8(kind.bitDepth), kind.colourType, 0, 0, interlaced ? 1 : 0])
        if kind.colourType == 3 {
            let entries = (0..<(1 << kind.bitDepth)).map(paletteEntry)
            png += chunk("PLTE", entries.flatMap { [$0.r, $0.g, $0.b] })
            png += chunk("tRNS", entries.map(\.a))
        }
        png += chunk("IDAT", PNGEncoder.zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    static func bigEndian(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(data.count) + body + bigEndian(Int(PNGEncoder.crc32(body)))
    }

    /// Packs values of 1 to 16 bits, most significant bit first, as PNG rows do; a row ends on a byte boundary.
    struct BitWriter {
        var bytes: [UInt8] = []
        private var used = 8  // bits used in the last byte

        mutating func append(_ value: Int, width: Int) {
            for bit in stride(from: width - 1, through: 0, by: -1) {
                if used == 8 {
                    bytes.append(0)
                    used = 0
                }
                bytes[bytes.count - 1] |= UInt8((value >> bit) & 1) << (7 - used)
                used += 1
            }
        }
    }
}
