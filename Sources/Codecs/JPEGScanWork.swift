#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The work a JPEG's scans make libjpeg do, counted from the file before it decodes: for every scan (SOS), the 8x8
/// blocks of the components it codes, summed over the scans.
///
/// libjpeg visits every block of a component in every scan that names it, whatever the scan holds (a scan of
/// end-of-block runs costs as much as a real one), so blocks times scans is what a decode costs. The scan count
/// alone is not: TurboJPEG's `TJFLAG_LIMITSCANS` allows 500 scans, and 499 scans over an 8192x8192 greyscale image
/// (181 KB of file) take 11 s of CPU. An ordinary progressive photo has about ten scans, each chroma component
/// at a quarter of the blocks.
struct JPEGScanWork: Sendable, Equatable {
    /// Blocks summed over the scans seen: the decode's work in block visits.
    var blockScans = 0
    /// The scans seen.
    var scans = 0

    /// Walks every segment from SOI to EOI (or the end of the data), skipping each scan's entropy-coded data. A
    /// scan before any frame header, or one naming components the frame does not have, adds nothing: libjpeg
    /// refuses such files itself.
    init(scanning bytes: UnsafeRawBufferPointer) {
        // By component id, all 256 of them: an array of Int, not a Dictionary<UInt8, Int>, which is a type the
        // Swift runtime makes at first use after a search of every protocol conformance in the binary (0.27 M
        // instructions, 2% of rendering a 640x427 JPEG).
        var blocksByComponent: [Int]?
        var offset = 2  // after SOI
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }  // fill byte before a marker
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            if marker == 0xD9 { return }  // end of image
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return }
            let segment = UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 2 + length)])
            offset += 2 + length
            switch marker {
            // SOF0...SOF15 but DHT (C4), JPG (C8) and DAC (CC); only the first frame header counts, as in libjpeg.
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC && blocksByComponent == nil:
                blocksByComponent = Self.blocks(frameHeader: segment)
            case 0xDA:
                scans += 1
                if segment.count >= 1, segment.count >= 1 + 2 * Int(segment[0]) {
                    for i in 0..<Int(segment[0]) { blockScans += blocksByComponent?[Int(segment[1 + 2 * i])] ?? 0 }
                }
                offset = Self.endOfEntropyData(bytes, from: offset)
            default:
                break
            }
        }
    }

    /// Each component's 8x8 blocks at its sampling, indexed by component id (0 for ids the frame does not have);
    /// nil for a damaged frame header.
    private static func blocks(frameHeader: UnsafeRawBufferPointer) -> [Int]? {
        guard frameHeader.count >= 6 else { return nil }
        let height = Int(frameHeader[1]) << 8 | Int(frameHeader[2])
        let width = Int(frameHeader[3]) << 8 | Int(frameHeader[4])
        let count = Int(frameHeader[5])
        guard count > 0, frameHeader.count >= 6 + 3 * count else { return nil }
        var sampling: [(id: UInt8, h: Int, v: Int)] = []
        for i in 0..<count {
            let factors = Int(frameHeader[7 + 3 * i])
            sampling.append((id: frameHeader[6 + 3 * i], h: max(1, factors >> 4), v: max(1, factors & 0x0F)))
        }
        let maxH = sampling.map(\.h).max()!, maxV = sampling.map(\.v).max()!
        var blocks = [Int](repeating: 0, count: 256)
        for component in sampling {
            let componentWidth = (width * component.h + maxH - 1) / maxH
            let componentHeight = (height * component.v + maxV - 1) / maxV
            blocks[Int(component.id)] = ((componentWidth + 7) / 8) * ((componentHeight + 7) / 8)
        }
        return blocks
    }

    /// The offset of the first marker after a scan's entropy-coded data that starts at `start`: an 0xFF followed by
    /// neither a stuffed zero nor a restart marker (which sit inside the data). `bytes.count` when there is none.
    private static func endOfEntropyData(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        var offset = start
        while offset < bytes.count {
            // memchr: a 64 MB file is skipped at memory speed, not a byte at a time.
            guard let found = memchr(base + offset, 0xFF, bytes.count - offset) else { return bytes.count }
            let at = base.distance(to: UnsafeRawPointer(found))
            guard at + 1 < bytes.count else { return bytes.count }
            let next = bytes[at + 1]
            if next == 0x00 || (0xD0...0xD7).contains(next) || next == 0xFF {
                offset = at + 1
                continue
            }
            return at
        }
        return bytes.count
    }
}
