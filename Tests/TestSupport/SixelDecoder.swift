import Pixels

/// Reads a sixel image back into pixels, so tests can check what a terminal would draw from the bytes we sent.
///
/// Understands what a DEC sixel stream may hold: `ESC P ... q`, raster attributes, `#n;2;r;g;b` (percent) palette
/// entries, `#n` colour selection, sixel characters, `!n` repeats, `$` and `-`, `ESC \`. Pixels no sixel sets stay
/// fully transparent (alpha 0). Anything else is an error naming the byte, so a malformed stream fails the test.
public struct SixelDecoder {
    public struct Image: Sendable {
        public var bitmap: Bitmap
        /// The size the raster attributes declared.
        public var declaredWidth: Int, declaredHeight: Int
        /// How many palette entries the stream defined.
        public var paletteCount: Int
        /// How many `!n` repeats the stream used.
        public var repeatCount: Int
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func decode(_ bytes: [UInt8]) throws -> Image {
        var i = 0
        func fail(_ what: String) -> Failure { Failure(description: "sixel byte \(i): \(what)") }
        guard bytes.count >= 4, bytes[0] == 0x1B, bytes[1] == UInt8(ascii: "P") else { throw fail("no ESC P") }
        i = 2
        while i < bytes.count, bytes[i] != UInt8(ascii: "q") { i += 1 }
        i += 1
        func number() -> Int {
            var value = 0
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) {
                value = value * 10 + Int(bytes[i] - 0x30)
                i += 1
            }
            return value
        }
        func numbers() -> [Int] {
            var values = [number()]
            while i < bytes.count, bytes[i] == UInt8(ascii: ";") {
                i += 1
                values.append(number())
            }
            return values
        }
        var declared = (0, 0)
        var palette: [Int: RGBA] = [:]
        // The colour register each pixel was last drawn with (a later colour overprints), -1 where none.
        var drawn: [Int] = []
        var outside: (x: Int, y: Int)?
        var colour = 0, x = 0, band = 0, repeats = 0
        func draw(_ sixel: UInt8, count: Int) {
            let mask = sixel - 0x3F
            for column in x..<(x + count) {
                for bit in 0..<6 where mask & (1 << bit) != 0 {
                    let y = band * 6 + bit
                    guard column < declared.0, y < declared.1 else {
                        outside = outside ?? (column, y)
                        continue
                    }
                    drawn[y * declared.0 + column] = colour
                }
            }
            x += count
        }
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case 0x1B:
                guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\\") else { throw fail("ESC without \\") }
                i = bytes.count + 1
            case UInt8(ascii: "\""):
                i += 1
                let values = numbers()
                guard values.count == 4 else { throw fail("raster attributes need 4 numbers, got \(values)") }
                declared = (values[2], values[3])
                drawn = [Int](repeating: -1, count: declared.0 * declared.1)
            case UInt8(ascii: "#"):
                i += 1
                let values = numbers()
                colour = values[0]
                if values.count == 5 {
                    guard values[1] == 2, values[2...].allSatisfy({ $0 <= 100 }) else {
                        throw fail("palette entry \(values) is not RGB percent")
                    }
                    func channel(_ percent: Int) -> UInt8 { UInt8((percent * 255 + 50) / 100) }
                    palette[colour] = RGBA(r: channel(values[2]), g: channel(values[3]), b: channel(values[4]))
                } else if values.count != 1 {
                    throw fail("colour command \(values)")
                }
            case UInt8(ascii: "$"):
                i += 1
                x = 0
            case UInt8(ascii: "-"):
                i += 1
                x = 0
                band += 1
            case UInt8(ascii: "!"):
                i += 1
                let count = number()
                guard i < bytes.count, (0x3F...0x7E).contains(bytes[i]) else { throw fail("repeat without sixel") }
                repeats += 1
                draw(bytes[i], count: count)
                i += 1
            case 0x3F...0x7E:
                draw(byte, count: 1)
                i += 1
            default:
                throw fail("unexpected byte \(byte)")
            }
        }
        guard i == bytes.count + 1 else { throw fail("no ESC \\ at the end") }
        if let outside {
            throw Failure(description: "pixel \(outside.x),\(outside.y) is outside the declared \(declared)")
        }
        var bitmap = Bitmap(width: declared.0, height: declared.1, fill: RGBA(r: 0, g: 0, b: 0, a: 0))
        for (index, register) in drawn.enumerated() where register >= 0 {
            guard let rgba = palette[register] else {
                throw Failure(description: "colour \(register) is used but never defined")
            }
            bitmap[index % declared.0, index / declared.0] = rgba
        }
        return Image(bitmap: bitmap, declaredWidth: declared.0, declaredHeight: declared.1,
                     paletteCount: palette.count, repeatCount: repeats)
    }
}
