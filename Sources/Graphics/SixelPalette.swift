import Pixels

/// The colours one sixel image is drawn with: chosen for that picture, at most as many as the terminal has colour
/// registers, each already rounded to what a sixel palette entry can say (whole percents of each channel).
struct SixelPalette: Sendable, Equatable {
    /// One palette colour, 8 bits a channel.
    struct Color: Sendable, Hashable {
        var r, g, b: UInt8
    }

    var colors: [Color]
    /// Whether the palette holds the picture's own colours, so that no dithering is needed.
    var isExact: Bool

    /// The palette of `pixels` (opaque pixels, packed `0x00RRGGBB`): its own colours when it has at most
    /// `maxColors`, else a median cut of its colour histogram.
    init(of pixels: [UInt32], maxColors: Int) {
        if let exact = Self.distinctColors(pixels, limit: maxColors) {
            colors = exact.map(Self.color(packed:))
            isExact = true
        } else {
            colors = Self.medianCut(pixels, maxColors: maxColors)
            isExact = false
        }
        colors = colors.map(\.sixelRounded)
    }


    static func color(packed: UInt32) -> Color {
        Color(r: UInt8(packed >> 16 & 0xFF), g: UInt8(packed >> 8 & 0xFF), b: UInt8(packed & 0xFF))
    }

    // MARK: Exact colours

    /// The distinct colours of `pixels` in order of first appearance, or nil as soon as there are more than
    /// `limit`. A photo gives up within its first few hundred pixels; a flat drawing keeps its exact colours.
    static func distinctColors(_ pixels: [UInt32], limit: Int) -> [UInt32]? {
        // Open addressing on a table at least four times the limit: keys carry bit 24 so that 0 means empty.
        var capacity = 16
        while capacity < limit * 4 { capacity <<= 1 }
        let mask = capacity - 1
        var table = [UInt32](repeating: 0, count: capacity)
        var found: [UInt32] = []
        for pixel in pixels {
            let key = pixel | 0x0100_0000
            var slot = Int((pixel &* 0x9E37_79B1) >> 16) & mask
            while table[slot] != 0 && table[slot] != key { slot = (slot + 1) & mask }
            if table[slot] == 0 {
                if found.count == limit { return nil }
                table[slot] = key
                found.append(pixel)
            }
        }
        return found
    }

    // MARK: Median cut

    /// One occupied cell of the 5-bit-a-channel histogram: its coordinates, its pixel count and channel sums.
    private struct Bin {
        var r, g, b: UInt8
        var count: Int
        var sumR, sumG, sumB: Int
        func coordinate(_ axis: Int) -> UInt8 { axis == 0 ? r : axis == 1 ? g : b }
    }

    /// A box of bins (a range of the bins array) and what choosing the next box to split needs.
    private struct Box {
        var range: Range<Int>
        var count: Int
        var longestAxis: Int
        var length: Int
        /// Boxes that are both wide and populous are split first: splitting them lowers the error most.
        var priority: Int { range.count > 1 ? length * count : -1 }
    }

    /// Up to `maxColors` colours: the histogram's occupied bins are split along the box's longest axis at the
    /// median pixel until there are enough boxes; each box gives its pixels' mean colour.
    private static func medianCut(_ pixels: [UInt32], maxColors: Int) -> [Color] {
        var histogram = [Int32](repeating: 0, count: 1 << 15)
        var sums = [Int](repeating: 0, count: 3 << 15)
        for pixel in pixels {
            let r = Int(pixel >> 16 & 0xFF), g = Int(pixel >> 8 & 0xFF), b = Int(pixel & 0xFF)
            let index = (r >> 3) << 10 | (g >> 3) << 5 | b >> 3
            histogram[index] += 1
            sums[index * 3] += r
            sums[index * 3 + 1] += g
            sums[index * 3 + 2] += b
        }
        var bins: [Bin] = []
        for index in 0..<histogram.count where histogram[index] > 0 {
            bins.append(Bin(r: UInt8(index >> 10), g: UInt8(index >> 5 & 31), b: UInt8(index & 31),
                            count: Int(histogram[index]),
                            sumR: sums[index * 3], sumG: sums[index * 3 + 1], sumB: sums[index * 3 + 2]))
        }
        var boxes = [makeBox(bins, 0..<bins.count)]
        while boxes.count < maxColors {
            guard let widest = boxes.indices.max(by: { boxes[$0].priority < boxes[$1].priority }),
                  boxes[widest].priority >= 0 else { break }
            let box = boxes[widest]
            let axis = box.longestAxis
            bins[box.range].sort { $0.coordinate(axis) < $1.coordinate(axis) }
            // The cut goes after the bin where half the box's pixels are reached, never leaving a side empty.
            var seen = 0, cut = box.range.lowerBound + 1
            for i in box.range {
                seen += bins[i].count
                if seen * 2 >= box.count { cut = i + 1; break }
            }
            cut = min(max(cut, box.range.lowerBound + 1), box.range.upperBound - 1)
            boxes[widest] = makeBox(bins, box.range.lowerBound..<cut)
            boxes.append(makeBox(bins, cut..<box.range.upperBound))
        }
        return boxes.map { box in
            var r = 0, g = 0, b = 0, n = 0
            for bin in bins[box.range] {
                r += bin.sumR; g += bin.sumG; b += bin.sumB; n += bin.count
            }
            return Color(r: UInt8((r + n / 2) / n), g: UInt8((g + n / 2) / n), b: UInt8((b + n / 2) / n))
        }
    }

    private static func makeBox(_ bins: [Bin], _ range: Range<Int>) -> Box {
        var low: [UInt8] = [31, 31, 31], high: [UInt8] = [0, 0, 0]
        var count = 0
        for bin in bins[range] {
            count += bin.count
            for axis in 0..<3 {
                let c = bin.coordinate(axis)
                low[axis] = min(low[axis], c)
                high[axis] = max(high[axis], c)
            }
        }
        // Green weighs most and blue least in how different two colours look.
        let weighted = [Int(high[0] - low[0]) * 3, Int(high[1] - low[1]) * 4, Int(high[2] - low[2]) * 2]
        let axis = weighted.indices.max { weighted[$0] < weighted[$1] }!
        return Box(range: range, count: count, longestAxis: axis, length: weighted[axis])
    }
}

extension SixelPalette.Color {
    /// The colour as the terminal will show it: a sixel palette entry gives each channel in whole percents.
    var sixelRounded: Self {
        Self(r: Self.fromPercent(percent(r)), g: Self.fromPercent(percent(g)), b: Self.fromPercent(percent(b)))
    }

    func percent(_ channel: UInt8) -> Int { (Int(channel) * 100 + 127) / 255 }

    static func fromPercent(_ percent: Int) -> UInt8 { UInt8((percent * 255 + 50) / 100) }
}
