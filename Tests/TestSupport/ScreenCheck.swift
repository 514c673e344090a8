import Pixels

/// A rectangle of pixels in a screen shot.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }

    /// Whether a rectangle of that much would fit inside `other`.
    public func isInside(_ other: PixelRect) -> Bool {
        x >= other.x && y >= other.y && x + width <= other.x + other.width && y + height <= other.y + other.height
    }

    public var description: String { "\(width)x\(height) at (\(x), \(y))" }
}

/// Where a terminal's cells are in a screen shot: the first cell's top left pixel and one cell's size in pixels.
public struct CellGeometry: Sendable, Hashable {
    public var originX: Int, originY: Int, cellWidth: Int, cellHeight: Int

    public init(originX: Int, originY: Int, cellWidth: Int, cellHeight: Int) {
        self.originX = originX
        self.originY = originY
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
    }

    /// The pixels of `columns` x `rows` cells from cell (`column`, `row`).
    public func rect(column: Int, row: Int, columns: Int, rows: Int) -> PixelRect {
        PixelRect(x: originX + column * cellWidth, y: originY + row * cellHeight, width: columns * cellWidth,
                  height: rows * cellHeight)
    }
}

/// The colours a terminal draws text and backgrounds in, and whether a pixel is one of them or a mixture of two
/// (the edges of antialiased glyphs: kitty's are, xterm's bitmap font is not). Any other colour is a picture's.
///
/// A program run without colours (`--color none`) draws in the terminal's foreground and background, their reverse,
/// and the terminal's dim and bold forms of them: a handful of colours a test names. A photograph's pixels are
/// almost never on the lines between them, so a picture left where none belongs shows as thousands of such pixels.
public struct TextColours: Sendable {
    public let colours: [RGBA]
    /// How far, per channel (0...255), a pixel may be from the nearest mixture and still count as text.
    public let tolerance: Int

    public init(_ colours: [RGBA], tolerance: Int = 6) {
        self.colours = colours
        self.tolerance = tolerance
    }

    /// Whether `pixel` is a text colour, or a mixture of two of them within the tolerance.
    public func isText(_ pixel: RGBA) -> Bool {
        for (i, a) in colours.enumerated() {
            for b in colours[i...] where Self.distance(pixel, toSegmentFrom: a, to: b) <= Double(tolerance) {
                return true
            }
        }
        return false
    }

    /// The largest per-channel distance from `p` to the nearest point of the segment from `a` to `b` (in RGB).
    static func distance(_ p: RGBA, toSegmentFrom a: RGBA, to b: RGBA) -> Double {
        let pa = [Double(p.r) - Double(a.r), Double(p.g) - Double(a.g), Double(p.b) - Double(a.b)]
        let ba = [Double(b.r) - Double(a.r), Double(b.g) - Double(a.g), Double(b.b) - Double(a.b)]
        let length = ba.reduce(0) { $0 + $1 * $1 }
        let t = length == 0 ? 0 : min(1, max(0, zip(pa, ba).reduce(0) { $0 + $1.0 * $1.1 } / length))
        return zip(pa, ba).map { abs($0.0 - t * $0.1) }.max() ?? 0
    }
}

/// A picture that should be on the screen: its source, the cells it belongs to, and the pixels it is drawn in.
public struct ExpectedPicture: Sendable {
    public var name: String
    public var source: Bitmap
    /// The picture's cells: pixels of another colour than text's may be here and nowhere else.
    public var cells: PixelRect
    /// Where its pixels are: the source scaled to this box is what they are compared with.
    public var drawn: PixelRect

    public init(name: String, source: Bitmap, cells: PixelRect, drawn: PixelRect) {
        self.name = name
        self.source = source
        self.cells = cells
        self.drawn = drawn
    }

    /// Drawn from the cells' top left corner, as large as fits inside them with the source's aspect ratio and never
    /// larger than the source (a sixel or iTerm2 picture the program fitted itself).
    public static func fitted(_ name: String, _ source: Bitmap, in cells: PixelRect) -> ExpectedPicture {
        let scale = min(1, Double(cells.width) / Double(source.width), Double(cells.height) / Double(source.height))
        let width = max(1, Int((Double(source.width) * scale).rounded()))
        let height = max(1, Int((Double(source.height) * scale).rounded()))
        return ExpectedPicture(name: name, source: source, cells: cells,
                               drawn: PixelRect(x: cells.x, y: cells.y, width: min(width, cells.width),
                                                height: min(height, cells.height)))
    }

    /// Stretched over all of its cells (a kitty placement given its columns and rows).
    public static func filling(_ name: String, _ source: Bitmap, cells: PixelRect) -> ExpectedPicture {
        ExpectedPicture(name: name, source: source, cells: cells, drawn: cells)
    }
}

/// What a screen shot shows against what should be on it: how like its source each expected picture is, and the
/// ghosts, pixels of no text colour outside every expected picture's cells (a picture left behind, or drawn in the
/// wrong place).
public struct ScreenCheck: Sendable, CustomStringConvertible {
    /// Each expected picture's name and its difference from its source (`ImageDifference.meanAbsolute` over 4x4
    /// blocks, 0...255): a few units for a picture drawn right, tens for a missing, shifted or other picture.
    public let differences: [(name: String, difference: Double)]
    /// How many pixels outside every expected picture's cells are no text colour.
    public let ghostPixels: Int
    /// The smallest rectangle holding them.
    public let ghostBox: PixelRect?

    /// Checks `shot` inside `screen` (the terminal's cells, in pixels).
    public init(_ shot: Bitmap, screen: PixelRect, pictures: [ExpectedPicture], text: TextColours) {
        differences = pictures.map { ($0.name, Self.difference(shot, at: $0.drawn, from: $0.source)) }
        var memo: [RGBA: Bool] = [:]
        var count = 0, left = Int.max, top = Int.max, right = -1, bottom = -1
        for y in screen.y..<(screen.y + screen.height) {
            for x in screen.x..<(screen.x + screen.width) {
                let pixel = shot[x, y]
                let isText = memo[pixel] ?? text.isText(pixel)
                memo[pixel] = isText
                guard !isText, !pictures.contains(where: { $0.cells.contains(x: x, y: y) }) else { continue }
                count += 1
                left = min(left, x); right = max(right, x)
                top = min(top, y); bottom = max(bottom, y)
            }
        }
        ghostPixels = count
        ghostBox = count == 0 ? nil : PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    /// The pixels at `box` against `source` scaled to that box.
    public static func difference(_ shot: Bitmap, at box: PixelRect, from source: Bitmap) -> Double {
        let drawn = shot.cropped(x: box.x, y: box.y, width: box.width, height: box.height)
        let scaled = ImageDifference.resized(source, width: box.width, height: box.height)
        return ImageDifference.meanAbsolute(drawn, scaled, block: 4)
    }

    /// Whether every picture is within `likeness` of its source and there are no ghosts.
    public func passes(likeness: Double) -> Bool {
        ghostPixels == 0 && differences.allSatisfy { $0.difference < likeness }
    }

    public var description: String {
        let pictures = differences.map { "\($0.name) \(($0.difference * 100).rounded() / 100)" }
        return "differences from the sources: [\(pictures.joined(separator: ", "))]; ghost pixels: \(ghostPixels)"
            + (ghostBox.map { " in \($0)" } ?? "")
    }
}

extension Bitmap {
    /// The `width` x `height` pixels from (x, y).
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> Bitmap {
        var out = Bitmap(width: width, height: height, fill: RGBA(r: 0, g: 0, b: 0))
        for row in 0..<height {
            for column in 0..<width { out[column, row] = self[x + column, y + row] }
        }
        return out
    }

    /// Whether every pixel of `rect` is `colour`.
    public func isFilled(_ rect: PixelRect, with colour: RGBA) -> Bool {
        (rect.y..<(rect.y + rect.height)).allSatisfy { y in
            (rect.x..<(rect.x + rect.width)).allSatisfy { self[$0, y] == colour }
        }
    }
}
