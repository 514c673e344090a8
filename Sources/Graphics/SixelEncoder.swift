import Pixels

/// Turns a bitmap into a sixel image: the DCS string a sixel terminal (xterm -ti vt340, foot, mlterm, WezTerm,
/// Konsole) draws at the cursor.
///
/// The picture gets its own palette (its exact colours when it has few enough, else a median cut), Floyd-Steinberg
/// dithering against that palette, and run-length compressed bands of six rows. Pixels left transparent are not
/// drawn at all (P2 = 1), so the terminal's background shows through them.
public enum SixelEncoder {
    /// How a picture is reduced to sixels.
    public struct Options: Sendable, Equatable {
        /// The most palette entries to use: the terminal's colour registers (XTSMGRAPHICS), at most 256.
        public var maxColors: Int
        /// Error diffusion when the picture has more colours than the palette.
        public var dither: Bool
        /// The colour transparent pixels are blended onto; nil leaves pixels under half opaque undrawn.
        public var background: RGBA?

        public init(maxColors: Int = 256, dither: Bool = true, background: RGBA? = nil) {
            self.maxColors = min(256, max(2, maxColors))
            self.dither = dither
            self.background = background
        }
    }

    /// The sixel image of `bitmap`, from `ESC P` to `ESC \`. Empty for a bitmap with no pixels.
    public static func encode(_ bitmap: Bitmap, options: Options = Options()) -> [UInt8] {
        guard bitmap.width > 0, bitmap.height > 0 else { return [] }
        let image = SixelQuantizedImage(bitmap, maxColors: options.maxColors, dither: options.dither,
                                        background: options.background)
        var writer = SixelWriter(capacity: bitmap.width * bitmap.height / 2)
        // P1 = 9: square pixels; P2 = 1: pixels no colour sets keep what is under them.
        writer.append("\u{1B}P9;1;0q")
        writer.append("\"1;1;")
        writer.append(number: image.width)
        writer.append(";")
        writer.append(number: image.height)
        for (i, colour) in image.palette.colors.enumerated() {
            writer.append("#")
            writer.append(number: i)
            writer.append(";2;")
            writer.append(number: colour.percent(colour.r))
            writer.append(";")
            writer.append(number: colour.percent(colour.g))
            writer.append(";")
            writer.append(number: colour.percent(colour.b))
        }
        writer.appendBands(of: image)
        writer.append("\u{1B}\\")
        return writer.bytes
    }
}

/// Writes the bands of a sixel image: for each band of six rows, each colour it uses as one run-length compressed
/// line of sixel characters, overprinted with `$`, bands separated by `-`.
struct SixelWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(number: Int) {
        if number >= 10 { append(number: number / 10) }
        bytes.append(UInt8(ascii: "0") + UInt8(number % 10))
    }

    /// `count` copies of the sixel `character`: `!count` followed by the character when that is shorter.
    mutating func append(run character: UInt8, count: Int) {
        if count >= 4 {
            bytes.append(UInt8(ascii: "!"))
            append(number: count)
            bytes.append(character)
        } else {
            for _ in 0..<count { bytes.append(character) }
        }
    }

    mutating func appendBands(of image: SixelQuantizedImage) {
        let width = image.width, colourCount = image.palette.colors.count
        // Each colour's six-bit masks across the band, and the first and last column it is used in.
        var masks = [UInt8](repeating: 0, count: max(1, colourCount * width))
        var first = [Int](repeating: Int.max, count: colourCount), last = [Int](repeating: -1, count: colourCount)
        var used: [Int] = []
        used.reserveCapacity(colourCount)
        let bands = (image.height + 5) / 6
        image.indices.withUnsafeBufferPointer { indices in
            for band in 0..<bands {
                let top = band * 6
                for row in 0..<min(6, image.height - top) {
                    let bit = UInt8(1) << row
                    let start = (top + row) * width
                    for x in 0..<width {
                        let index = indices[start + x]
                        if index == SixelQuantizedImage.transparent { continue }
                        let colour = Int(index)
                        if last[colour] < 0 { used.append(colour) }
                        first[colour] = min(first[colour], x)
                        last[colour] = max(last[colour], x)
                        masks[colour * width + x] |= bit
                    }
                }
                for (n, colour) in used.enumerated() {
                    if n > 0 { bytes.append(UInt8(ascii: "$")) }
                    bytes.append(UInt8(ascii: "#"))
                    append(number: colour)
                    // Columns before the colour's first are skipped with empty sixels; those after its last, not
                    // written at all.
                    append(run: 0x3F, count: first[colour])
                    let row = colour * width
                    var x = first[colour]
                    while x <= last[colour] {
                        let mask = masks[row + x]
                        var end = x + 1
                        while end <= last[colour] && masks[row + end] == mask { end += 1 }
                        append(run: 0x3F + mask, count: end - x)
                        x = end
                    }
                    for x in first[colour]...last[colour] { masks[row + x] = 0 }
                    first[colour] = Int.max
                    last[colour] = -1
                }
                used.removeAll(keepingCapacity: true)
                if band < bands - 1 { bytes.append(UInt8(ascii: "-")) }
            }
        }
    }
}
