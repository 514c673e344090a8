import Codecs

/// The placeholder images of the photos catalog: a square of one colour with the photo's id drawn large in a
/// contrasting colour, so a thumbnail in the wrong row shows at a glance.
enum Placeholder {
    /// The largest side the server draws.
    static let maxSize = 2000

    /// Parses `92c952` (or `fff`) into a colour. Five digits (`8e973`, as some jsonplaceholder photos have) are
    /// read as six with a leading zero, the number they stand for.
    static func color(hex: String) -> PNGEncoder.Color? {
        var digits = Substring(hex)
        if digits.count == 3 { digits = Substring(digits.flatMap { [$0, $0] }) }
        if digits.count == 5 { digits = "0" + digits }
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        return PNGEncoder.Color(r: UInt8(value >> 16), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF))
    }

    /// Black on light colours, white on dark ones.
    static func contrasting(_ color: PNGEncoder.Color) -> PNGEncoder.Color {
        let luma = 0.299 * Double(color.r) + 0.587 * Double(color.g) + 0.114 * Double(color.b)
        return luma > 140 ? PNGEncoder.Color(r: 0, g: 0, b: 0) : PNGEncoder.Color(r: 255, g: 255, b: 255)
    }

    /// A PNG `size` pixels square in `background`, with `text` (digits) across the middle.
    static func png(size: Int, background: PNGEncoder.Color, text: String) throws -> [UInt8] {
        var indices = [UInt8](repeating: 0, count: size * size)
        for square in DigitLayout(text: text, width: size, height: size).squares {
            for y in square.rows { for x in square.columns { indices[y * size + x] = 1 } }
        }
        return try PNGEncoder.indexed(width: size, height: size, palette: [background, contrasting(background)],
                                      indices: indices)
    }

    /// Digits in a 3x5 grid, a row a number, the leftmost column the highest bit.
    static let digitGlyphs: [Character: [UInt8]] = [
        "0": [0b111, 0b101, 0b101, 0b101, 0b111],
        "1": [0b010, 0b110, 0b010, 0b010, 0b111],
        "2": [0b111, 0b001, 0b111, 0b100, 0b111],
        "3": [0b111, 0b001, 0b111, 0b001, 0b111],
        "4": [0b101, 0b101, 0b111, 0b001, 0b001],
        "5": [0b111, 0b100, 0b111, 0b001, 0b111],
        "6": [0b111, 0b100, 0b111, 0b101, 0b111],
        "7": [0b111, 0b001, 0b010, 0b010, 0b010],
        "8": [0b111, 0b101, 0b111, 0b101, 0b111],
        "9": [0b111, 0b101, 0b111, 0b001, 0b111],
    ]
}
