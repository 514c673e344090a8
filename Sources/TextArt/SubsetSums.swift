/// Sums of a cell's band values over many masks at once, each mask's sum one addition of two sums already made.
///
/// The values and the sums share one buffer: the caller writes the `valueCount` values at its start, `evaluate`
/// fills the rest, and `slot` says where each mask's sum is. A mask's sum is the sum of the largest mask already
/// summed inside it plus the sum of what is left (made first if need be), so a glyph set whose masks are unions
/// of a few groups of bands (a sextant's pixel is three or four bands) costs about one addition a mask, not one a
/// band. The order of the additions is fixed when the set is built, so the sums are the same from run to run.
struct SubsetSums: Sendable, Equatable {
    /// How many values the buffer starts with.
    let valueCount: Int
    /// For each sum after the values, the two slots it adds.
    let left: [Int32]
    let right: [Int32]
    /// For each mask asked for, in the order given, the slot holding its sum; -1 for the empty mask.
    let slot: [Int]

    /// Slots in the buffer: the values, then the sums.
    var slotCount: Int { valueCount + left.count }

    /// Fills the sums in `buffer` (`slotCount` entries, the values already at its start).
    @inline(__always)
    func evaluate<Value: PixelSum>(_ buffer: UnsafeMutablePointer<Value>) {
        left.withUnsafeBufferPointer { left in
            right.withUnsafeBufferPointer { right in
                var out = buffer + valueCount
                for i in 0..<left.count {
                    out.pointee = buffer[Int(left[i])] + buffer[Int(right[i])]
                    out += 1
                }
            }
        }
    }
}

extension SubsetSums {
    /// The plan for summing `masks` over `valueCount` values. (In an extension, so the memberwise initialiser that
    /// BlockSymbols+Tables.swift's literals use stays.)
    init(masks: [Int], valueCount: Int) {
        self.valueCount = valueCount
        var known: [(mask: Int, slot: Int)] = (0..<valueCount).map { (1 << $0, $0) }
        var slotOfMask: [Int: Int] = Dictionary(uniqueKeysWithValues: known.map { ($0.mask, $0.slot) })
        var left: [Int32] = [], right: [Int32] = []
        func make(_ mask: Int) -> Int {
            if let slot = slotOfMask[mask] { return slot }
            // The largest mask summed already that lies inside this one (the first of equals: a fixed order).
            var part = 0, bits = 0
            for entry in known where entry.mask & mask == entry.mask && entry.mask != mask {
                let count = entry.mask.nonzeroBitCount
                if count > bits { part = entry.mask; bits = count }
            }
            let a = slotOfMask[part]!, b = make(mask & ~part)
            left.append(Int32(a)); right.append(Int32(b))
            let slot = valueCount + left.count - 1
            known.append((mask, slot))
            slotOfMask[mask] = slot
            return slot
        }
        // Small masks first, so larger ones find them inside.
        let order = masks.filter { $0 != 0 }.sorted { ($0.nonzeroBitCount, $0) < ($1.nonzeroBitCount, $1) }
        for mask in order { _ = make(mask) }
        self.left = left
        self.right = right
        slot = masks.map { $0 == 0 ? -1 : slotOfMask[$0]! }
    }
}

/// What `SubsetSums` adds: a band's scalar (a vote) or its colour.
protocol PixelSum {
    static func + (a: Self, b: Self) -> Self
}

extension Float: PixelSum {}
extension SIMD3: PixelSum where Scalar == Float {}
