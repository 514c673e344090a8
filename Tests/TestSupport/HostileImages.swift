/// Image files made to cost far more than their pixels, written byte by byte: the shapes of issue 24 (chunks that
/// inflate to megabytes, scans that visit every block for nothing), built at any size instead of committed.
public enum HostileImages {
    // MARK: PNG

    /// A `side` x `side` 8-bit grey PNG (every pixel `grey`) with `count` chunks of `type` before its IDAT and
    /// `count` after it. Each chunk holds `header` and then a zlib stream that inflates to `inflatedBytes` letters
    /// (as zTXt, iTXt and iCCP carry their text or profile), unless `compressed` is false: then `inflatedBytes`
    /// plain ones. libpng refuses a chunk that inflates past 8,000,000 bytes (Debian's build): the chunks
    /// stay just under it.
    public static func png(side: Int = 16, grey: UInt8 = 0x80, chunk type: String, count: Int,
                           header: [UInt8], inflatedBytes: Int, compressed: Bool = true) -> [UInt8] {
        let payload = header + (compressed ? zlibRepeated(0x41, count: inflatedBytes) : [UInt8](repeating: 0x41,
                                                                                         count: inflatedBytes))
        let extra = pngChunk(type, payload)
        var file = pngSignature + pngChunk("IHDR", bigEndian(side) + bigEndian(side) + [8, 0, 0, 0, 0])
        for _ in 0..<count { file += extra }
        file += pngChunk("IDAT", zlibStored([UInt8]((0..<side).flatMap { _ in [0] + [UInt8](repeating: grey,
                                                                                             count: side) })))
        for _ in 0..<count { file += extra }
        return file + pngChunk("IEND", [])
    }

    /// The same picture as `png(side:grey:...)` with no extra chunks.
    public static func plainPNG(side: Int = 16, grey: UInt8 = 0x80) -> [UInt8] {
        png(side: side, grey: grey, chunk: "tEXt", count: 0, header: [], inflatedBytes: 0)
    }

    /// A `side` x `side` black grey PNG whose one zlib stream holds its rows and then `trailingBytes` more zeros: the
    /// rows are complete long before the stream ends, and libpng went on inflating the rest (40 s for a gigabyte).
    public static func pngWithTrailingImageData(side: Int = 16, trailingBytes: Int) -> [UInt8] {
        // Black rows are zeros, filter bytes included: the whole stream is one run of zeros.
        let rows = side * (1 + side)
        return pngSignature + pngChunk("IHDR", bigEndian(side) + bigEndian(side) + [8, 0, 0, 0, 0])
            + pngChunk("IDAT", zlibRepeated(0, count: rows + trailingBytes)) + pngChunk("IEND", [])
    }

    /// A `side` x `side` grey PNG whose zlib stream starts with `emptyBlocks` empty stored blocks (5 bytes each,
    /// nothing inflated) before the rows: input zlib must walk, though it makes no pixel.
    public static func pngWithEmptyDeflateBlocks(side: Int = 16, grey: UInt8 = 0x80, emptyBlocks: Int) -> [UInt8] {
        let rows = [UInt8]((0..<side).flatMap { _ in [0] + [UInt8](repeating: grey, count: side) })
        let stored = zlibStored(rows)
        let empty: [UInt8] = [0, 0, 0, 0xFF, 0xFF]  // not final, stored, length 0 and its complement
        var stream = Array(stored.prefix(2))
        stream.reserveCapacity(stored.count + 5 * emptyBlocks)
        for _ in 0..<emptyBlocks { stream += empty }
        stream += stored.dropFirst(2)
        return pngSignature + pngChunk("IHDR", bigEndian(side) + bigEndian(side) + [8, 0, 0, 0, 0])
            + pngChunk("IDAT", stream) + pngChunk("IEND", [])
    }

    /// The start of a chunk of `type` that claims `length` bytes of data and holds a few: what follows it in a file
    /// becomes its data, as far as the file goes.
    public static func chunkClaiming(_ length: Int, type: String) -> [UInt8] {
        bigEndian(length) + Array(type.utf8) + Array("Comment".utf8) + [0, 0, 0x78, 0xDA]
    }

    /// A 16x16 PNG whose first chunk after IHDR claims `length` bytes of `type`, the image data after it.
    public static func pngWithChunkClaiming(_ length: Int, type: String) -> [UInt8] {
        let plain = plainPNG()
        return Array(plain.prefix(8 + 25)) + chunkClaiming(length, type: type) + plain.dropFirst(8 + 25)
    }

    /// The header bytes each compressed chunk type puts before its zlib stream: a keyword, then flags.
    public static func compressedHeader(for type: String) -> [UInt8] {
        switch type {
        case "iTXt": Array("Comment".utf8) + [0, 1, 0, 0, 0]  // keyword, compressed, method 0, no language/key
        case "zTXt", "iCCP": Array("Comment".utf8) + [0, 0]  // keyword (profile name), method 0
        default: []
        }
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(data.count) + body + bigEndian(Int(crc32(body)))
    }

    /// A zlib stream of `count` copies of `byte` in one fixed-Huffman block: a literal, then copies of 258 bytes at
    /// distance 1 (13 bits each, about 160 to 1), then literals for the rest. Text of a letter, not of zeros:
    /// libpng keeps a text chunk up to its first zero byte.
    static func zlibRepeated(_ byte: UInt8, count: Int) -> [UInt8] {
        precondition(byte <= 143, "literals 0-143 have 8-bit codes")
        var bits = BitWriter(lsbFirst: true)
        bits.write(0b1, count: 1)  // final block
        bits.write(0b01, count: 2)  // fixed Huffman codes
        var left = count
        if left > 0 {
            bits.writeCode(0x30 + Int(byte), length: 8)  // literals 0-143 are 0x30 + value, 8 bits
            left -= 1
        }
        while left >= 258 {
            bits.writeCode(0b1100_0101, length: 8)  // length 258: code 285, no extra bits
            bits.writeCode(0, length: 5)  // distance code 0: distance 1
            left -= 258
        }
        for _ in 0..<left { bits.writeCode(0x30 + Int(byte), length: 8) }
        bits.writeCode(0, length: 7)  // end of block (256)
        // Adler-32 of n equal bytes b: s1 = 1 + n b, s2 = n + b n (n + 1) / 2, both modulo 65521.
        let n = count, b = Int(byte)
        let s1 = (1 + n % 65521 * b) % 65521
        let s2 = (n % 65521 + b * ((n * (n + 1) / 2) % 65521)) % 65521
        return [0x78, 0x01] + bits.bytes(padding: 0) + bigEndian(s2 << 16 | s1)
    }

    /// `data` in stored (uncompressed) deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(data.count, start + 65535)
            let length = end - start
            out += [end == data.count ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8),
                    UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[start..<end]
            start = end
        } while start < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return out + bigEndian(Int(b << 16 | a))
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    // MARK: GIF

    /// A GIF89a of a 1x1 screen and `frames` frames of one black pixel each (15 bytes a frame): a small file with a
    /// frame count no animation has. giflib keeps a record of every frame it reads.
    public static func gif(frames: Int) -> [UInt8] {
        let head = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        // Image descriptor at (0, 0), 1x1, no local table; LZW minimum code size 2; one sub-block of the 3-bit codes
        // clear (4), index 0, end (5), packed from the least significant bit: 0x44 0x01.
        let frame: [UInt8] = [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]
        var file = head
        file.reserveCapacity(head.count + frames * frame.count + 1)
        for _ in 0..<frames { file += frame }
        return file + [0x3B]
    }

    // MARK: JPEG

    /// A progressive greyscale JPEG of `side` x `side` pixels with `scans` scans in all: one DC scan, then AC scans
    /// of single coefficients by successive approximation (a first pass at bit 7, refinements down to bit 0,
    /// coefficient after coefficient), every one of them a few end-of-block runs over all the blocks. The picture
    /// is flat grey, the file small, and the decode visits every block once a scan.
    public static func progressiveJPEG(side: Int, scans: Int) -> [UInt8] {
        var file: [UInt8] = [0xFF, 0xD8]
        file += segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))  // one quantisation table, all ones
        file += segment(0xC2, [8] + bigEndian16(side) + bigEndian16(side) + [1, 1, 0x11, 0])
        // DC table 0: the one symbol 0 (difference 0) as code "0".
        file += segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0])
        // AC table 0: EOB runs EOB0...EOB14 (symbols 0x00...0xE0), fifteen 4-bit codes.
        file += segment(0xC4, [0x10, 0, 0, 0, 15] + [UInt8](repeating: 0, count: 12) + (0..<15).map { UInt8($0 << 4) })
        let blocks = ((side + 7) / 8) * ((side + 7) / 8)

        // DC first scan: one bit a block.
        file += segment(0xDA, [1, 1, 0x00, 0, 0, 0x00])
        var dc = BitWriter()
        for _ in 0..<blocks { dc.writeCode(0, length: 1) }
        file += stuffed(dc.bytes(padding: 1))

        var written = 1, coefficient = 1, bit = 7, first = true
        while written < scans, coefficient <= 63 {
            let approximation = first ? UInt8(bit) : UInt8((bit + 1) << 4 | bit)
            file += segment(0xDA, [1, 1, 0x00, UInt8(coefficient), UInt8(coefficient), approximation])
            var ac = BitWriter()
            var left = blocks
            while left > 0 {
                let run = min(left, 32767)
                let n = Int.bitWidth - 1 - run.leadingZeroBitCount  // floor(log2 run)
                ac.writeCode(n, length: 4)
                if n > 0 { ac.writeCode(run - (1 << n), length: n) }
                left -= run
            }
            file += stuffed(ac.bytes(padding: 1))
            written += 1
            first = false
            bit -= 1
            if bit < 0 { coefficient += 1; bit = 7; first = true }
        }
        return file + [0xFF, 0xD9]
    }

    private static func segment(_ marker: UInt8, _ data: [UInt8]) -> [UInt8] {
        [0xFF, marker] + bigEndian16(data.count + 2) + data
    }

    /// Entropy-coded bytes with an 0x00 after every 0xFF, as JPEG requires.
    private static func stuffed(_ bytes: [UInt8]) -> [UInt8] {
        bytes.flatMap { $0 == 0xFF ? [0xFF, 0x00] : [$0] }
    }

    // MARK: Bits and numbers

    private static func bigEndian(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    private static func bigEndian16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// Bits into bytes. `write` puts a value's bits least significant first (deflate's header fields);
    /// `writeCode` puts a code most significant bit first, as Huffman codes and JPEG's extra bits go.
    private struct BitWriter {
        private var out: [UInt8] = []
        private var current = 0
        private var filled = 0
        /// Deflate packs from the least significant bit of each byte, JPEG from the most significant.
        private let lsbFirst: Bool

        init(lsbFirst: Bool = false) { self.lsbFirst = lsbFirst }

        mutating func write(_ value: Int, count: Int) {
            for i in 0..<count { put((value >> i) & 1) }
        }

        mutating func writeCode(_ code: Int, length: Int) {
            for i in stride(from: length - 1, through: 0, by: -1) { put((code >> i) & 1) }
        }

        private mutating func put(_ bit: Int) {
            current |= lsbFirst ? bit << filled : bit << (7 - filled)
            filled += 1
            if filled == 8 {
                out.append(UInt8(current))
                current = 0
                filled = 0
            }
        }

        /// The bytes, the last one filled up with `padding` bits.
        func bytes(padding: Int) -> [UInt8] {
            guard filled > 0 else { return out }
            var last = current
            for i in filled..<8 { last |= lsbFirst ? padding << i : padding << (7 - i) }
            return out + [UInt8(last)]
        }
    }
}
