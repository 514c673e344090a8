/// The tiles a HEIF or AVIF grid image declares, counted from the file's boxes before libheif sees them.
///
/// libheif 1.15 decodes every tile a grid names, and a tile's cost does not depend on its bytes (a few bytes of HEVC
/// can declare a 512x512 grey square), so a small file naming 10,000 tiles would decode for minutes. The tiles are
/// the `dimg` references of the grid's item in `meta`/`iref`; the largest count among them is checked.
enum HEIFGrid {
    static func checkTileCount(_ bytes: UnsafeRawBufferPointer, limit: Int,
                               format: ImageFormat) throws(DecodeError) {
        let tiles = largestTileCount(bytes)
        guard tiles <= limit else {
            throw .unsupported(format,
                               reason: "its grid declares \(tiles) tiles, above the \(limit) one image may have")
        }
    }

    /// The largest `dimg` reference count in the file's `meta` box, 0 when there is none or the boxes are damaged
    /// (libheif then says what is wrong).
    static func largestTileCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let meta = child("meta", of: 0..<bytes.count, in: bytes), meta.count >= 4,
              let iref = child("iref", of: meta.lowerBound + 4..<meta.upperBound, in: bytes), iref.count >= 4
        else { return 0 }
        let idBytes = bytes[iref.lowerBound] == 0 ? 2 : 4  // iref version 0 has 16-bit item ids, version 1 32-bit
        var largest = 0
        forEachBox(in: iref.lowerBound + 4..<iref.upperBound, of: bytes) { type, body in
            guard type == "dimg", body.count >= idBytes + 2 else { return }
            let countOffset = body.lowerBound + idBytes
            largest = max(largest, Int(bytes[countOffset]) << 8 | Int(bytes[countOffset + 1]))
        }
        return largest
    }

    /// The body of the first box of `type` directly inside `range`.
    private static func child(_ type: String, of range: Range<Int>, in bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        var found: Range<Int>?
        forEachBox(in: range, of: bytes) { boxType, body in
            if found == nil, boxType == type { found = body }
        }
        return found
    }

    /// Calls `body` with the type and body range of each box directly inside `range`, stopping at the first whose
    /// size does not fit.
    private static func forEachBox(in range: Range<Int>, of bytes: UnsafeRawBufferPointer,
                                   _ body: (String, Range<Int>) -> Void) {
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            func bigEndian(_ at: Int, _ count: Int) -> Int { bytes[at..<at + count].reduce(0) { $0 << 8 | Int($1) } }
            var size = bigEndian(offset, 4)
            var header = 8
            if size == 1 {
                guard offset + 16 <= range.upperBound, bytes[offset + 8] == 0 else { return }
                size = bigEndian(offset + 8, 8)
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, size <= range.upperBound - offset else { return }
            body(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self), offset + header..<offset + size)
            offset += size
        }
    }
}
