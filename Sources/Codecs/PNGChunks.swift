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

    /// Refuses a PNG whose image data (its IDAT chunks together) is longer than its rows could need: the filtered
    /// rows (`rawImageBytes`), a quarter more for an encoder that expands them (deflate's fixed codes: 9 bits for
    /// some bytes), and 64 KB. zlib stored blocks add 5 bytes in 65,535, so every encoder fits.
    ///
    /// Why: libpng inflates every byte of image data it is given, after the last row as before it (it only warns
    /// at the end, "Too much image data"), and inflating costs time for every byte in and every byte out: 40 MB of
    /// empty deflate blocks around 16x16 pixels took 3.4 s, and a 1 MB stream that goes on for a gigabyte after
    /// the rows 2.5 s. Within this bound what a stream can make zlib do grows with the pixels: at most 1,032 bytes
    /// out for each byte in (deflate's longest match), so for 16x16 pixels at most 66 MB, 0.15 s.
    static func checkImageData(_ bytes: UnsafeRawBufferPointer) throws(DecodeError) {
        guard let raw = rawImageBytes(bytes) else { return }  // no IHDR: libpng has refused it already
        let limit = raw + raw / 4 + 65536
        var total = 0
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = Int(bigEndian32(bytes, at: offset))
            if bigEndian32(bytes, at: offset + 4) == type("IDAT") { total += length }
            if total > limit {
                throw .corrupt(.png, reason: "its image data is \(total) bytes or more, more than its pixels could "
                                   + "need (at most \(limit) bytes)")
            }
            offset += 12 + length
        }
    }

    /// The bytes of the filtered rows IHDR declares (a filter byte and the packed samples for each row of each
    /// interlace pass), or nil without an IHDR.
    static func rawImageBytes(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 29, bigEndian32(bytes, at: 12) == type("IHDR") else { return nil }
        let width = Int(bigEndian32(bytes, at: 16)), height = Int(bigEndian32(bytes, at: 20))
        let depth = Int(bytes[24]), interlaced = bytes[28] != 0
        // Samples a pixel by colour type: grey, -, RGB, palette, grey and alpha, -, RGBA.
        let channels = [1, 1, 3, 1, 2, 1, 4][min(Int(bytes[25]), 6)]
        func rows(_ columns: Int, _ count: Int) -> Int {
            columns == 0 || count == 0 ? 0 : count * (1 + (columns * channels * depth + 7) / 8)
        }
        guard interlaced else { return rows(width, height) }
        // Adam7: each pass starts at (x0, y0) and takes every dx-th pixel of every dy-th row.
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return passes.reduce(0) { sum, pass in
            sum + rows((width - pass.0 + pass.2 - 1) / pass.2, (height - pass.1 + pass.3 - 1) / pass.3)
        }
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
