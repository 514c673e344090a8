/// Animated GIFs made at test time, with frames a test can tell apart: full-screen frames of palette indices,
/// coded as "uncompressed" LZW (every pixel its own 9-bit code, a clear code every 100 pixels so the code size never
/// grows), which every decoder reads.
public enum TestGIF {
    /// A GIF89a of `frames` frames of `width` x `height`, looping forever, each shown `delay` hundredths of a second;
    /// pixel (x, y) of frame f is colour `pixel(f, x, y)` of `palette` (at most 256 colours).
    public static func animated(width: Int, height: Int, frames: Int, delay: Int,
                                palette: [(UInt8, UInt8, UInt8)], pixel: (Int, Int, Int) -> UInt8) -> [UInt8] {
        var file = Array("GIF89a".utf8) + le16(width) + le16(height) + [0xF7, 0, 0]
        for i in 0..<256 {
            let colour = i < palette.count ? palette[i] : (0, 0, 0)
            file += [colour.0, colour.1, colour.2]
        }
        // NETSCAPE2.0: loop forever.
        file += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for f in 0..<frames {
            file += [0x21, 0xF9, 4, 0] + le16(delay) + [0, 0]
            file += [0x2C] + le16(0) + le16(0) + le16(width) + le16(height) + [0]
            var indices: [UInt8] = []
            indices.reserveCapacity(width * height)
            for y in 0..<height { for x in 0..<width { indices.append(pixel(f, x, y)) } }
            file += [8] + subBlocks(lzw(indices)) + [0]
        }
        return file + [0x3B]
    }

    /// Clear, then each index as a 9-bit code (a clear every 100), then end of information; bits from the least
    /// significant.
    private static func lzw(_ indices: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [], bits = 0, count = 0
        func code(_ value: Int) {
            bits |= value << count
            count += 9
            while count >= 8 {
                bytes.append(UInt8(bits & 0xFF))
                bits >>= 8
                count -= 8
            }
        }
        for (i, index) in indices.enumerated() {
            if i % 100 == 0 { code(256) }
            code(Int(index))
        }
        code(257)
        if count > 0 { bytes.append(UInt8(bits & 0xFF)) }
        return bytes
    }

    private static func subBlocks(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        while start < data.count {
            let end = min(start + 255, data.count)
            out.append(UInt8(end - start))
            out += data[start..<end]
            start = end
        }
        return out
    }

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
}
