/// HEIF, AVIF and JPEG XL for the detail pane: the format from the `ftyp` brands or the JPEG XL signature, the
/// stored size from the largest `ispe` property (a grid's whole picture, not its tiles or thumbnail) or from the JPEG
/// XL codestream's size header.
extension ImageFileInfo {
    static func parseNewer(_ b: [UInt8]) -> ImageFileInfo? {
        if b.count >= 12, b[4..<8].elementsEqual("ftyp".utf8) {
            let brands = String(decoding: b[8..<min(b.count, 8 + max(0, be32(b, 0) - 8))], as: UTF8.self)
            let format = brands.contains("avif") || brands.contains("avis") ? "AVIF"
                : ["heic", "heix", "mif1", "msf1"].contains(where: brands.contains) ? "HEIF" : nil
            guard let format, let size = largestExtent(b) else { return nil }
            return ImageFileInfo(format: format, width: size.width, height: size.height)
        }
        let container: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
        if b.starts(with: [0xFF, 0x0A]) { return jxlSize(b, at: 2) }
        guard b.starts(with: container) else { return nil }
        // The codestream is in a `jxlc` box, or split over `jxlp` boxes (each after a 4-byte index).
        var offset = 12
        while offset + 8 <= b.count {
            let size = be32(b, offset)
            let type = String(decoding: b[offset + 4..<offset + 8], as: UTF8.self)
            if type == "jxlc" { return jxlSize(b, at: offset + 10) }
            if type == "jxlp" { return jxlSize(b, at: offset + 14) }
            guard size >= 8 else { return nil }
            offset += size
        }
        return nil
    }

    private static func be32(_ b: [UInt8], _ i: Int) -> Int {
        b[i..<i + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    /// The largest width x height among the `ispe` boxes (type, version and flags, then two 32-bit numbers), cut to
    /// the first `clap` (clean aperture: width and height as fractions) when one is smaller: encoders code an odd
    /// width one pixel wider and crop it so.
    private static func largestExtent(_ b: [UInt8]) -> (width: Int, height: Int)? {
        var best: (width: Int, height: Int)?
        var aperture: (width: Int, height: Int)?
        var i = 4
        while i + 20 <= b.count {
            if b[i..<i + 4].elementsEqual("ispe".utf8) {
                let extent = (width: be32(b, i + 8), height: be32(b, i + 12))
                if extent.width * extent.height > (best.map { $0.width * $0.height } ?? 0) { best = extent }
            } else if aperture == nil, i + 20 <= b.count, b[i..<i + 4].elementsEqual("clap".utf8),
                      be32(b, i + 8) > 0, be32(b, i + 16) > 0 {
                aperture = (width: be32(b, i + 4) / be32(b, i + 8), height: be32(b, i + 12) / be32(b, i + 16))
            }
            i += 1
        }
        guard let best, let aperture, aperture.width <= best.width, aperture.height <= best.height else { return best }
        return aperture
    }

    /// The JPEG XL SizeHeader after the signature: little-endian bits, heights and widths as multiples of 8 or as
    /// one of four field widths, or the width as a fixed ratio of the height.
    private static func jxlSize(_ b: [UInt8], at start: Int) -> ImageFileInfo? {
        var bit = start * 8
        func read(_ count: Int) -> Int? {
            var value = 0
            for n in 0..<count {
                guard bit / 8 < b.count else { return nil }
                value |= Int(b[bit / 8] >> (bit % 8) & 1) << n
                bit += 1
            }
            return value
        }
        func dimension(small: Bool) -> Int? {
            if small { return read(5).map { ($0 + 1) * 8 } }
            guard let selector = read(2) else { return nil }
            return read([9, 13, 18, 30][selector]).map { $0 + 1 }
        }
        guard let small = read(1), let height = dimension(small: small == 1), let ratio = read(3) else { return nil }
        let ratios = [(1, 1), (12, 10), (4, 3), (3, 2), (16, 9), (5, 4), (2, 1)]
        let width = ratio == 0 ? dimension(small: small == 1) : height * ratios[ratio - 1].0 / ratios[ratio - 1].1
        return width.map { ImageFileInfo(format: "JPEG XL", width: $0, height: height) }
    }
}
