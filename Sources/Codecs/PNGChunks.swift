/// The chunks of a PNG that libpng is given: the critical ones and the few ancillary ones that change the pixels
/// we produce (`tRNS`, `gAMA`, `cHRM`, `sRGB`). Every other ancillary chunk (text of any kind, `iCCP`, `zTXt`,
/// `iTXt`, `sPLT`, `eXIf`, animation and private chunks) is dropped unread, whatever its count or size.
///
/// Why: libpng inflates and keeps every text chunk and the ICC profile it reads, a file can hold thousands of
/// them, and none of it reaches a thumbnail. The simplified API offers no way to turn them off (its read state is
/// private), and a chunk never handed to libpng costs nothing: a 16x16 file with 300 `iTXt` chunks of 8 MB each
/// would otherwise take 2.3 GB and 13 s. Critical chunks we do not know are kept, so libpng still refuses them.
enum PNGChunks {
    /// The ancillary chunk types kept: transparency and the colour-space chunks libpng turns samples to sRGB with.
    private static let keptAncillary: Set<UInt32> = [type("tRNS"), type("gAMA"), type("cHRM"), type("sRGB")]

    /// `bytes` without the ancillary chunks libpng does not need, or nil when nothing would be dropped (the
    /// common case: no copy is made). A chunk that claims more bytes than the file holds ends the walk: one of the
    /// dropped kinds is cut off with everything after it (libpng would allocate the length it claims, up to 2 GB,
    /// before finding the data short), any other is left with the rest for libpng, which reads those in bounded
    /// pieces and reports the damage in its own words.
    static func essential(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        let drops = droppedRanges(bytes)
        guard !drops.isEmpty else { return nil }
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count - drops.reduce(0) { $0 + $1.count })
        var start = 0
        for drop in drops {
            kept.append(contentsOf: bytes[start..<drop.lowerBound])
            start = drop.upperBound
        }
        kept.append(contentsOf: bytes[start...])
        return kept
    }

    /// The bytes `essential` would copy: 0 when it makes no copy.
    static func essentialCopyBytes(_ bytes: UnsafeRawBufferPointer) -> Int {
        let drops = droppedRanges(bytes)
        return drops.isEmpty ? 0 : bytes.count - drops.reduce(0) { $0 + $1.count }
    }

    /// The byte ranges of the chunks to drop (length, type, data and CRC), in file order; adjacent ones merged.
    private static func droppedRanges(_ bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        var drops: [Range<Int>] = []
        var offset = 8  // after the signature
        while offset + 8 <= bytes.count {
            let length = Int(bigEndian32(bytes, at: offset))
            let chunkType = bigEndian32(bytes, at: offset + 4)
            // Bit 5 of the first type byte (lowercase) marks an ancillary chunk.
            let dropped = chunkType & 0x2000_0000 != 0 && !keptAncillary.contains(chunkType)
            // A chunk's length is at most 2^31 - 1 (the specification); past the end of the data it is damage.
            guard length <= Int(Int32.max), length <= bytes.count - offset - 12 else {
                if dropped { drop(offset..<bytes.count, into: &drops) }
                break
            }
            let end = offset + 12 + length
            if dropped {
                drop(offset..<end, into: &drops)
            }
            if chunkType == type("IEND") { break }
            offset = end
        }
        return drops
    }

    /// Adds `range` to `drops`, merged with the last range when they touch.
    private static func drop(_ range: Range<Int>, into drops: inout [Range<Int>]) {
        if let last = drops.last, last.upperBound == range.lowerBound {
            drops[drops.count - 1] = last.lowerBound..<range.upperBound
        } else {
            drops.append(range)
        }
    }

    private static func bigEndian32(_ bytes: UnsafeRawBufferPointer, at i: Int) -> UInt32 {
        UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
    }

    private static func type(_ name: StaticString) -> UInt32 {
        name.withUTF8Buffer { b in UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3]) }
    }
}
