/// What the JPEG segments before the image data say that TurboJPEG does not report: the EXIF orientation and
/// thumbnail, whether an Adobe APP14 segment is present (Adobe's CMYK JPEGs store inverted ink values), and whether
/// the data ends before the first scan.
struct JPEGMarkers: Sendable, Equatable {
    var orientation: ExifOrientation = .up
    /// Where the EXIF segment's JPEG thumbnail lies in the file, when it declares one inside the segment.
    var exifThumbnail: Range<Int>?
    var hasAdobeSegment = false
    /// The data ends inside the header segments: there is no image data at all, only a cut-short file.
    var endsInHeaders = false
    /// The stored (not yet turned) size in the frame header (SOFn), when there is one before the first scan.
    var frameSize: PixelSize?
    /// The bytes of DCT coefficients libjpeg keeps for the whole image while it decodes a progressive JPEG (every
    /// scan refines every block, so all of them stay in memory, at full size whatever the DCT scaling): 2 bytes a
    /// coefficient, 64 a block, each component at its sampling. 0 for sequential JPEGs, decoded a row of blocks at
    /// a time.
    var coefficientBytes = 0

    /// Walks the marker segments from SOI to the first SOS; damaged or missing segments leave the defaults.
    init(scanning bytes: UnsafeRawBufferPointer) {
        var offset = 2  // after SOI
        defer { if offset + 4 > bytes.count { endsInHeaders = true } }
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }  // fill byte before a marker
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return }  // start of scan or end of image: no more metadata
            guard marker >= 0xC0 else { return }  // not a marker: damaged, not cut short
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2 else { return }
            guard offset + 2 + length <= bytes.count else {
                endsInHeaders = true
                return
            }
            let segment = UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 2 + length)])
            switch marker {
            case 0xE1 where segment.starts(with: Self.exifHeader):
                let exif = ExifTIFF(UnsafeRawBufferPointer(rebasing: segment.dropFirst(6)))
                if let value = exif.orientation, let orientation = ExifOrientation(rawValue: value) {
                    self.orientation = orientation
                }
                let tiffStart = offset + 4 + 6
                exifThumbnail = exif.thumbnail.map { (tiffStart + $0.lowerBound)..<(tiffStart + $0.upperBound) }
            case 0xEE where segment.starts(with: Self.adobeHeader):
                hasAdobeSegment = true
            // SOF0...SOF15 but DHT (C4), JPG (C8) and DAC (CC): precision, height, width, components.
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC && segment.count >= 5
                && frameSize == nil:
                let size = PixelSize(width: Int(segment[3]) << 8 | Int(segment[4]),
                                     height: Int(segment[1]) << 8 | Int(segment[2]))
                frameSize = size
                // SOF2, SOF6, SOF10 and SOF14 are the progressive ones.
                if marker & 0x03 == 0x02 { coefficientBytes = Self.coefficientBytes(size, frameHeader: segment) }
            default:
                break
            }
            offset += 2 + length
        }
    }

    /// What a progressive frame's coefficients take: each component's blocks (8x8 samples at its sampling factors
    /// against the largest ones) times 128 bytes.
    private static func coefficientBytes(_ size: PixelSize, frameHeader: UnsafeRawBufferPointer) -> Int {
        let count = Int(frameHeader[5])
        guard count > 0, frameHeader.count >= 6 + 3 * count else { return 0 }
        var factors: [(h: Int, v: Int)] = []
        for i in 0..<count {
            let sampling = Int(frameHeader[7 + 3 * i])
            factors.append((h: max(1, sampling >> 4), v: max(1, sampling & 0x0F)))
        }
        let maxH = factors.map { $0.h }.max()!, maxV = factors.map { $0.v }.max()!
        var total = 0
        for factor in factors {
            let width = (size.width * factor.h + maxH - 1) / maxH
            let height = (size.height * factor.v + maxV - 1) / maxV
            total += ((width + 7) / 8) * ((height + 7) / 8) * 128
        }
        return total
    }

    private static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
    private static let adobeHeader: [UInt8] = Array("Adobe".utf8)
}
