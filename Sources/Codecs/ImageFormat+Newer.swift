extension ImageFormat {
    /// HEIF, AVIF or JPEG XL from their signatures: an ISO-BMFF `ftyp` box whose brands say HEIF or AVIF, or JPEG
    /// XL's codestream or container signature.
    static func sniffingNewerFormats(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        let jxlCodestream: [UInt8] = [0xFF, 0x0A]
        let jxlContainer: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
        if bytes.starts(with: jxlCodestream) || bytes.starts(with: jxlContainer) { return .jxl }
        return isobmffBrandFormat(bytes)
    }

    /// The format an `ftyp` box's brands name: AVIF when any brand is AVIF's (an AVIF file may put the generic
    /// `mif1` first), else HEIF when any is HEIF's.
    private static func isobmffBrandFormat(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        let brands = isobmffBrands(bytes)
        if brands.contains(where: avifBrands.contains) { return .avif }
        if brands.contains(where: heifBrands.contains) { return .heif }
        return nil
    }

    /// The brands an ISO-BMFF `ftyp` box at the start of `bytes` lists, the major brand first; none without one.
    static func isobmffBrands(_ bytes: UnsafeRawBufferPointer) -> [String] {
        guard bytes.count >= 16, bytes[4..<8].elementsEqual("ftyp".utf8) else { return [] }
        let boxSize = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let end = min(bytes.count, boxSize)
        // The major brand (offset 8), then the compatible brands after the minor version (offset 16 on).
        return ([8] + Array(stride(from: 16, to: end - 3, by: 4))).map { offset in
            String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
        }
    }

    /// AVIF stills and sequences.
    private static let avifBrands: Set<String> = ["avif", "avis"]
    /// HEVC-coded HEIF (heic, heix and their sequence forms) and the generic HEIF brands (mif1, msf1).
    private static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
}
