import Pixels

/// How far one picture is from another, as tests of real pixels measure it: both are averaged over blocks of
/// `block` x `block` pixels (so dithering, which trades per-pixel error for a right average, is judged as the eye
/// sees it) and the mean absolute difference per channel (0...255) is taken over the blocks.
public enum ImageDifference {
    /// The mean absolute difference per channel of the block averages of `a` and `b`, which must be the same size.
    /// Pixels with alpha under 128 in either count as black, so a missing picture is far from a drawn one.
    public static func meanAbsolute(_ a: Bitmap, _ b: Bitmap, block: Int) -> Double {
        precondition(a.width == b.width && a.height == b.height, "compare \(a.width)x\(a.height) with \(b.width)x\(b.height)")
        var total = 0.0, samples = 0
        for top in stride(from: 0, to: a.height, by: block) {
            for left in stride(from: 0, to: a.width, by: block) {
                let one = average(a, left, top, block), other = average(b, left, top, block)
                total += abs(one.0 - other.0) + abs(one.1 - other.1) + abs(one.2 - other.2)
                samples += 3
            }
        }
        return samples == 0 ? 0 : total / Double(samples)
    }

    /// `bitmap` scaled to `width` x `height` by averaging the source pixels each target pixel covers (what a
    /// picture drawn smaller than its source is compared with).
    public static func resized(_ bitmap: Bitmap, width: Int, height: Int) -> Bitmap {
        var out = Bitmap(width: width, height: height, fill: RGBA(r: 0, g: 0, b: 0))
        for y in 0..<height {
            let y0 = y * bitmap.height / height, y1 = max(y0 + 1, (y + 1) * bitmap.height / height)
            for x in 0..<width {
                let x0 = x * bitmap.width / width, x1 = max(x0 + 1, (x + 1) * bitmap.width / width)
                var r = 0, g = 0, b = 0, a = 0
                for sy in y0..<y1 {
                    for sx in x0..<x1 {
                        let p = bitmap[sx, sy]
                        r += Int(p.r); g += Int(p.g); b += Int(p.b); a += Int(p.a)
                    }
                }
                let n = (y1 - y0) * (x1 - x0)
                out[x, y] = RGBA(r: UInt8(r / n), g: UInt8(g / n), b: UInt8(b / n), a: UInt8(a / n))
            }
        }
        return out
    }

    private static func average(_ bitmap: Bitmap, _ left: Int, _ top: Int, _ block: Int) -> (Double, Double, Double) {
        var r = 0, g = 0, b = 0, n = 0
        for y in top..<min(top + block, bitmap.height) {
            for x in left..<min(left + block, bitmap.width) {
                let p = bitmap[x, y]
                if p.a >= 128 {
                    r += Int(p.r); g += Int(p.g); b += Int(p.b)
                }
                n += 1
            }
        }
        return (Double(r) / Double(n), Double(g) / Double(n), Double(b) / Double(n))
    }
}
