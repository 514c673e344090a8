/// Sums of a cell's pixel values over many masks at once: each mask's sum is the sum of the mask without its highest
/// pixel plus that pixel, so every mask costs one addition instead of one a pixel.
///
/// The additions happen in the order of adding a mask's pixels one by one from the lowest, so the sums are the same
/// to the bit as that plain loop's (and the glyphs chosen from them too).
struct SubsetSums: Sendable {
    /// For each step after the first (the empty mask), the step holding its mask less the highest pixel...
    let parent: [Int]
    /// ...and that pixel.
    let pixel: [Int]
    /// For each mask asked for, in the order given, the step holding its sum.
    let step: [Int]

    var stepCount: Int { parent.count }

    init(masks: [Int]) {
        var needed = Set<Int>()
        for mask in masks {
            var m = mask
            while m != 0 {
                needed.insert(m)
                m &= ~Self.highestBit(m)
            }
        }
        var index: [Int: Int] = [0: 0]
        var parent = [0], pixel = [0]
        // Ascending: a mask's parent is smaller than the mask, so its step exists already.
        for mask in needed.sorted() {
            let high = Self.highestBit(mask)
            parent.append(index[mask & ~high]!)
            pixel.append(high.trailingZeroBitCount)
            index[mask] = parent.count - 1
        }
        self.parent = parent
        self.pixel = pixel
        step = masks.map { index[$0]! }
    }

    private static func highestBit(_ m: Int) -> Int { 1 << (Int.bitWidth - 1 - m.leadingZeroBitCount) }

    /// Fills `sums` (`stepCount` entries) with the sum of `values` over each step's mask.
    @inline(__always)
    func evaluate<Value: PixelSum>(_ values: UnsafePointer<Value>, into sums: UnsafeMutablePointer<Value>) {
        parent.withUnsafeBufferPointer { parent in
            pixel.withUnsafeBufferPointer { pixel in
                sums[0] = .zero
                for i in 1..<parent.count { sums[i] = sums[parent[i]] + values[pixel[i]] }
            }
        }
    }
}

/// What `SubsetSums` adds: a pixel's scalar (a vote) or its colour.
protocol PixelSum {
    static var zero: Self { get }
    static func + (a: Self, b: Self) -> Self
}

extension Float: PixelSum {}
extension SIMD3: PixelSum where Scalar == Float {}
