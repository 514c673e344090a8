/// What ThumbTable reads from the TIFF structure a JPEG's EXIF segment holds: IFD0's orientation tag, and where
/// IFD1's JPEG thumbnail lies.
///
/// Every offset is checked against the structure's bytes; a damaged or hostile structure leaves the fields nil.
struct ExifTIFF {
    /// The value of tag 0x0112 in IFD0.
    var orientation: Int?
    /// The bytes of IFD1's JPEG thumbnail (tags 0x0201 and 0x0202), as offsets into the TIFF structure, when they lie
    /// wholly inside it.
    var thumbnail: Range<Int>?

    init(_ tiff: UnsafeRawBufferPointer) {
        let reader = Reader(tiff: tiff)
        guard let reader, let ifd0 = reader.u32(4) else { return }
        orientation = reader.value(of: 0x0112, inIFDAt: ifd0)
        thumbnail = reader.thumbnail(afterIFDAt: ifd0)
    }

    /// Reads the numbers of a TIFF structure in its byte order; nil for any read outside it.
    private struct Reader {
        let tiff: UnsafeRawBufferPointer
        let bigEndian: Bool

        init?(tiff: UnsafeRawBufferPointer) {
            guard tiff.count >= 8 else { return nil }
            switch (tiff[0], tiff[1]) {
            case (0x49, 0x49): bigEndian = false  // "II"
            case (0x4D, 0x4D): bigEndian = true  // "MM"
            default: return nil
            }
            self.tiff = tiff
            guard u16(2) == 42 else { return nil }
        }

        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            let a = Int(tiff[at]), b = Int(tiff[at + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }

        func u32(_ at: Int) -> Int? {
            guard let high = u16(bigEndian ? at : at + 2), let low = u16(bigEndian ? at + 2 : at) else { return nil }
            return high << 16 | low
        }

        /// The value of a SHORT or LONG tag with one value in the IFD at `ifd`.
        func value(of tag: Int, inIFDAt ifd: Int) -> Int? {
            guard let entries = u16(ifd) else { return nil }
            for index in 0..<entries {
                let entry = ifd + 2 + index * 12
                guard let found = u16(entry) else { return nil }
                guard found == tag else { continue }
                switch u16(entry + 2) {
                case 3: return u16(entry + 8)  // SHORT
                case 4: return u32(entry + 8)  // LONG
                default: return nil
                }
            }
            return nil
        }

        /// The JPEG thumbnail of the IFD that follows the one at `ifd0` (IFD1), when its offset and length lie
        /// inside the structure and its compression, if given, is JPEG (6).
        func thumbnail(afterIFDAt ifd0: Int) -> Range<Int>? {
            guard let entries = u16(ifd0), let ifd1 = u32(ifd0 + 2 + entries * 12), ifd1 >= 8, ifd1 != ifd0,
                  let start = value(of: 0x0201, inIFDAt: ifd1), let length = value(of: 0x0202, inIFDAt: ifd1),
                  start >= 8, length >= 4, start <= tiff.count, length <= tiff.count - start
            else { return nil }
            if let compression = value(of: 0x0103, inIFDAt: ifd1), compression != 6 { return nil }
            return start..<(start + length)
        }
    }
}
