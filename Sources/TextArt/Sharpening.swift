/// Unsharp masking of the sampled picture, before glyphs are fitted to it.
enum Sharpening {
    /// Adds `amount` times each pixel's difference from a blur of the picture, in place, for a picture of
    /// `cellColumns x cellRows` pixels a cell.
    ///
    /// The blur averages each pixel with its neighbours half a cell's width away across and the same distance down
    /// (weights 1 2 1 each way; a cell is taken as twice as tall as wide), so it works at the same scale on the
    /// screen whatever the mode's grid. One pass a plane: each row is blurred across once, into a ring of the rows
    /// the blur down still needs, and a row is overwritten only when no later row's blur needs its old values.
    static func unsharp(_ image: inout LinearImage, amount: Float, cellColumns: Int, cellRows: Int) {
        let w = image.width, h = image.height
        guard amount != 0, w > 0, h > 0 else { return }
        let dx = max(1, cellColumns / 2), dy = max(1, cellRows / 4)
        let ring = 2 * dy + 1
        withUnsafeTemporaryAllocation(of: Float.self, capacity: ring * w) { across in
            let across = across.baseAddress!
            image.r.withUnsafeMutableBufferPointer {
                sharpen($0.baseAddress!, width: w, height: h, dx: dx, dy: dy, amount: amount, across: across)
            }
            image.g.withUnsafeMutableBufferPointer {
                sharpen($0.baseAddress!, width: w, height: h, dx: dx, dy: dy, amount: amount, across: across)
            }
            image.b.withUnsafeMutableBufferPointer {
                sharpen($0.baseAddress!, width: w, height: h, dx: dx, dy: dy, amount: amount, across: across)
            }
        }
    }

    /// One plane of `unsharp`; `across` holds `2 * dy + 1` rows, each row's blur across in slot `row % (2 * dy + 1)`.
    @inline(__always)
    private static func sharpen(_ p: UnsafeMutablePointer<Float>, width w: Int, height h: Int, dx: Int, dy: Int,
                                amount: Float, across: UnsafeMutablePointer<Float>) {
        let ring = 2 * dy + 1
        for y in 0..<min(h, dy + 1) { blurAcross(p, row: y, width: w, dx: dx, into: across + (y % ring) * w) }
        let keep = 1 + amount
        for y in 0..<h {
            // Only the rows above y are overwritten yet, so row y + dy still holds the picture.
            if y > 0, y + dy < h {
                blurAcross(p, row: y + dy, width: w, dx: dx, into: across + ((y + dy) % ring) * w)
            }
            let up = across + (max(0, y - dy) % ring) * w
            let mid = across + (y % ring) * w
            let down = across + (min(h - 1, y + dy) % ring) * w
            let row = p + y * w
            for x in 0..<w {
                let blur = 0.25 * (up[x] + down[x]) + 0.5 * mid[x]
                row[x] = min(1, max(0, keep * row[x] - amount * blur))
            }
        }
    }

    @inline(__always)
    private static func load(_ p: UnsafeMutablePointer<Float>) -> SIMD4<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
    }

    /// Row `row` of plane `p` blurred across (1 2 1 at `dx`, the edge pixels repeated beyond the edges) into `out`.
    @inline(__always)
    private static func blurAcross(_ p: UnsafeMutablePointer<Float>, row: Int, width w: Int, dx: Int,
                                   into out: UnsafeMutablePointer<Float>) {
        let src = p + row * w
        // The edges apart, so the middle runs without clamping, four at a time.
        let inner = min(max(dx, w - dx), w)
        for x in 0..<min(dx, w) { out[x] = 0.25 * (src[0] + src[min(w - 1, x + dx)]) + 0.5 * src[x] }
        var x = dx
        while x + 4 <= w - dx {
            let v = 0.25 * (load(src + x - dx) + load(src + x + dx)) + 0.5 * load(src + x)
            UnsafeMutableRawPointer(out + x).storeBytes(of: v, as: SIMD4<Float>.self)
            x += 4
        }
        while x < w - dx { out[x] = 0.25 * (src[x - dx] + src[x + dx]) + 0.5 * src[x]; x += 1 }
        for x in inner..<w { out[x] = 0.25 * (src[max(0, x - dx)] + src[w - 1]) + 0.5 * src[x] }
    }
}
