/// Writes small palette PNGs in pure Swift: what the demo server's placeholder images need, with no C library.
///
/// The pixel rows are stored uncompressed (deflate "stored" blocks inside the zlib stream), which every PNG reader
/// accepts. With a two-colour palette a pixel is one bit, so a 600x600 placeholder is about 45 KB.
public enum PNGEncoder {
    /// Why an image cannot be written.
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        case badSize(width: Int, height: Int)
        case badPalette(count: Int)
        case pixelCountMismatch(expected: Int, got: Int)
        case indexOutOfPalette(index: UInt8, paletteCount: Int)

        public var description: String {
            switch self {
            case .badSize(let width, let height): "PNGEncoder: cannot write a \(width)x\(height) image"
            case .badPalette(let count): "PNGEncoder: a palette needs 1 to 256 colours, got \(count)"
            case .pixelCountMismatch(let expected, let got):
                "PNGEncoder: expected \(expected) palette indices (width x height), got \(got)"
            case .indexOutOfPalette(let index, let count):
                "PNGEncoder: palette index \(index) is outside the \(count)-colour palette"
            }
        }
    }

    /// An 8-bit-per-channel RGB colour of the palette.
    public struct Color: Sendable, Hashable {
        public var r, g, b: UInt8
        public init(r: UInt8, g: UInt8, b: UInt8) {
            self.r = r
            self.g = g
            self.b = b
        }
    }

    /// A PNG of `width` x `height` pixels, each an index into `palette`, row by row from the top left.
    public static func indexed(width: Int, height: Int, palette: [Color], indices: [UInt8]) throws(Error) -> [UInt8] {
        guard width >= 1, height >= 1, width <= 1 << 16, height <= 1 << 16 else {
            throw .badSize(width: width, height: height)
        }
        guard (1...256).contains(palette.count) else { throw .badPalette(count: palette.count) }
        guard indices.count == width * height else {
            throw .pixelCountMismatch(expected: width * height, got: indices.count)
        }
        if let bad = indices.first(where: { Int($0) >= palette.count }) {
            throw .indexOutOfPalette(index: bad, paletteCount: palette.count)
        }
        let bitDepth = palette.count <= 2 ? 1 : palette.count <= 4 ? 2 : palette.count <= 16 ? 4 : 8
        let perByte = 8 / bitDepth
        let rowBytes = (width + perByte - 1) / perByte
        // Each row: filter type 0 (none), then the packed indices, most significant bits first.
        var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        for y in 0..<height {
            let rowStart = y * (rowBytes + 1) + 1
            for x in 0..<width {
                let shift = 8 - bitDepth * (x % perByte + 1)
                raw[rowStart + x / perByte] |= indices[y * width + x] << shift
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [UInt8(bitDepth), 3, 0, 0, 0] // colour type 3 (palette), deflate, adaptive filters, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("PLTE", palette.flatMap { [$0.r, $0.g, $0.b] }, to: &png)
        appendChunk("IDAT", zlibStored(raw), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        png.appendBigEndian(UInt32(data.count))
        let typeAndData = Array(type.utf8) + data
        png += typeAndData
        png.appendBigEndian(crc32(typeAndData))
    }

    /// A zlib stream holding `data` in deflate blocks that are stored, not compressed.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01] // deflate, 32 KB window, no dictionary; 0x7801 is a multiple of 31
        var offset = 0
        repeat {
            let count = min(0xFFFF, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            out.append(last) // BFINAL, BTYPE 00 (stored)
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        out.appendBigEndian(adler32(data))
        return out
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in data { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}

private extension [UInt8] {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
