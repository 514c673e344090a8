/// Writes an 8-bit RGB or RGBA PNG, each row filtered the way that leaves the smallest differences (libpng's
/// heuristic: the least sum of absolute values), then deflated: what a kitty upload as `f=100` carries.
enum PNGWriter {
    /// The PNG of `width` x `height` pixels packed `channels` (3 or 4) bytes each, row by row; nil if zlib fails.
    static func png(width: Int, height: Int, channels: Int, pixels: [UInt8], level: Int32) -> [UInt8]? {
        precondition(channels == 3 || channels == 4, "PNGWriter writes RGB or RGBA")
        precondition(pixels.count == width * height * channels, "PNGWriter: pixel count")
        guard let data = Zlib.deflate(filtered(width: width, height: height, channels: channels, pixels: pixels),
                                      level: level) else { return nil }
        var header: [UInt8] = []
        append(UInt32(width), to: &header)
        append(UInt32(height), to: &header)
        // Bit depth 8, colour type 2 (RGB) or 6 (RGBA), deflate, adaptive filtering, no interlace.
        header += [8, channels == 3 ? 2 : 6, 0, 0, 0]
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(data.count + 64)
        chunk("IHDR", header, into: &png)
        chunk("IDAT", data, into: &png)
        chunk("IEND", [], into: &png)
        return png
    }

    /// The rows, each led by its filter type: the one of None, Sub, Up, Average and Paeth whose output has the
    /// least sum of absolute (signed) values.
    static func filtered(width: Int, height: Int, channels: Int, pixels: [UInt8]) -> [UInt8] {
        let stride = width * channels
        var output = [UInt8](repeating: 0, count: height * (stride + 1))
        var candidate = [UInt8](repeating: 0, count: stride)
        var best = [UInt8](repeating: 0, count: stride)
        pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                let row = pixels.baseAddress! + y * stride
                let above = y > 0 ? row - stride : nil
                var bestSum = Int.max
                var bestType: UInt8 = 0
                for type in UInt8(0)...4 {
                    let sum = candidate.withUnsafeMutableBufferPointer { out in
                        filter(type, row: row, above: above, count: stride, channels: channels, into: out.baseAddress!)
                    }
                    if sum < bestSum {
                        bestSum = sum
                        bestType = type
                        swap(&best, &candidate)
                    }
                }
                let start = y * (stride + 1)
                output[start] = bestType
                output.replaceSubrange(start + 1..<start + 1 + stride, with: best)
            }
        }
        return output
    }

    /// Filters one row with `type` into `out`; returns the sum of the output bytes read as signed.
    private static func filter(_ type: UInt8, row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>?, count: Int,
                               channels: Int, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var sum = 0
        for i in 0..<count {
            let x = row[i]
            let a = i >= channels ? row[i - channels] : 0
            let b = above?[i] ?? 0
            let c = i >= channels ? above?[i - channels] ?? 0 : 0
            let predicted: UInt8
            switch type {
            case 0: predicted = 0
            case 1: predicted = a
            case 2: predicted = b
            case 3: predicted = UInt8((Int(a) + Int(b)) / 2)
            default: predicted = paeth(a, b, c)
            }
            let value = x &- predicted
            out[i] = value
            sum += abs(Int(Int8(bitPattern: value)))
        }
        return sum
    }

    /// The neighbour (left, above, upper left) nearest to left + above - upper left.
    private static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    private static func chunk(_ type: String, _ data: [UInt8], into png: inout [UInt8]) {
        append(UInt32(data.count), to: &png)
        let start = png.count
        png += Array(type.utf8)
        png += data
        append(Zlib.crc32(png[start...]), to: &png)
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
