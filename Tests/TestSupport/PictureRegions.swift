import Pixels

/// The pictures on a screen shot found from the screen alone: groups of touching cells that hold pixels of no text
/// colour, each with the box of those pixels. Where the test cannot know each picture's cells beforehand (a list
/// scrolled, zoomed and resized by keys), it names each region after the source it looks like.
public struct PictureRegion: Sendable, CustomStringConvertible {
    /// The cells the region takes, in pixels.
    public var cells: PixelRect
    /// The box of its picture pixels.
    public var drawn: PixelRect
    /// The source it looks most like, and how far it is from it (`ScreenCheck.difference`).
    public var name: String = "", difference: Double = .infinity

    public var description: String {
        "\(name.isEmpty ? "?" : name) \((difference * 100).rounded() / 100) in \(drawn)"
    }

    /// The regions of `shot` in a terminal's `columns` x `rows` cells, in the order of their first cell (top to
    /// bottom, left to right).
    public static func find(in shot: Bitmap, columns: Int, rows: Int, geometry: CellGeometry, text: TextColours)
        -> [PictureRegion]
    {
        var memo: [RGBA: Bool] = [:]
        // Each cell's box of picture pixels, if it has any.
        var boxes = [PixelRect?](repeating: nil, count: columns * rows)
        for row in 0..<rows {
            for column in 0..<columns {
                let cell = geometry.rect(column: column, row: row, columns: 1, rows: 1)
                var box: PixelRect?
                for y in cell.y..<(cell.y + cell.height) {
                    for x in cell.x..<(cell.x + cell.width) {
                        let pixel = shot[x, y]
                        let isText = memo[pixel] ?? text.isText(pixel)
                        memo[pixel] = isText
                        guard !isText else { continue }
                        box = box.map { $0.union(x: x, y: y) } ?? PixelRect(x: x, y: y, width: 1, height: 1)
                    }
                }
                boxes[row * columns + column] = box
            }
        }
        var seen = [Bool](repeating: false, count: columns * rows)
        var regions: [PictureRegion] = []
        for start in boxes.indices where boxes[start] != nil && !seen[start] {
            var stack = [start], cellBox: PixelRect?, drawn: PixelRect?
            seen[start] = true
            while let index = stack.popLast() {
                let (row, column) = (index / columns, index % columns)
                let cell = geometry.rect(column: column, row: row, columns: 1, rows: 1)
                cellBox = cellBox.map { $0.union(cell) } ?? cell
                drawn = drawn.map { $0.union(boxes[index]!) } ?? boxes[index]
                for (r, c) in [(row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)]
                where r >= 0 && r < rows && c >= 0 && c < columns && boxes[r * columns + c] != nil
                    && !seen[r * columns + c] {
                    seen[r * columns + c] = true
                    stack.append(r * columns + c)
                }
            }
            regions.append(PictureRegion(cells: cellBox!, drawn: drawn!))
        }
        return merged(regions)
    }

    /// The regions with those whose pixels' boxes overlap made one: a picture's white or grey parts are text
    /// colours, and a hole of such cells can cut a piece of it off.
    static func merged(_ regions: [PictureRegion]) -> [PictureRegion] {
        var out: [PictureRegion] = []
        for region in regions {
            var region = region
            while let i = out.firstIndex(where: { $0.drawn.intersects(region.drawn) }) {
                let other = out.remove(at: i)
                region = PictureRegion(cells: other.cells.union(region.cells), drawn: other.drawn.union(region.drawn))
            }
            out.append(region)
        }
        return out.sorted { ($0.cells.y, $0.cells.x) < ($1.cells.y, $1.cells.x) }
    }

    /// This region named after the source of `sources` its pixels are least far from.
    public func named(from sources: [(name: String, bitmap: Bitmap)], in shot: Bitmap) -> PictureRegion {
        var named = self
        for source in sources {
            let difference = ScreenCheck.difference(shot, at: drawn, from: source.bitmap)
            if difference < named.difference { (named.name, named.difference) = (source.name, difference) }
        }
        return named
    }
}

extension PixelRect {
    /// The smallest rectangle holding this one and `other`.
    public func union(_ other: PixelRect) -> PixelRect {
        let left = min(x, other.x), top = min(y, other.y)
        let right = max(x + width, other.x + other.width), bottom = max(y + height, other.y + other.height)
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Whether the two share a pixel.
    public func intersects(_ other: PixelRect) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }

    /// The smallest rectangle holding this one and the pixel (x, y).
    public func union(x px: Int, y py: Int) -> PixelRect {
        union(PixelRect(x: px, y: py, width: 1, height: 1))
    }
}
