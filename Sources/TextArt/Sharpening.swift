/// Unsharp masking of the sampled picture, before glyphs are fitted to it.
enum Sharpening {
    /// Sharpens the picture in place, `across` and `down` times each pixel's difference from a blur that way, for a
    /// picture of `cellColumns x cellRows` pixels a cell.
    ///
    /// Each way is sharpened on its own, across then down on the result, so the two can differ. The blurs average
    /// each pixel with its neighbours half a cell's width away across and the same distance down (weights 1 2 1; a
    /// cell is taken as twice as tall as wide), so they work at the same scale on the screen whatever the mode's grid.
    /// One pass a plane: each row is sharpened across once, into a ring of the rows the pass down still needs, and a
    /// row is overwritten only when no later row needs its old values.
    static func unsharp(_ image: inout LinearImage, across: Float, down: Float, cellColumns: Int, cellRows: Int) {
        let w = image.width, h = image.height
        guard across != 0 || down != 0, w > 0, h > 0 else { return }
        let dx = max(1, cellColumns / 2), dy = max(1, cellRows / 4)
        let ring = 2 * dy + 1
        withUnsafeTemporaryAllocation(of: Float.self, capacity: ring * w) { rows in
            let rows = rows.baseAddress!
            image.r.withUnsafeMutableBufferPointer {
                sharpen($0.baseAddress!, width: w, height: h, dx: dx, dy: dy, across: across, down: down, rows: rows)
            }
            image.g.withUnsafeMutableBufferPointer {
                sharpen($0.baseAddress!, width: w, height: h, dx: dx, dy: dy, across: across, down: down, rows: rows)
            }
            image.b.withUnsafeMutableBufferPointer {
                sharpen($0.baseAddress!, width: w, height: h, dx: dx, dy: dy, across: across, down: down, rows: rows)
            }
        }
    }

    /// One plane of `unsharp`; `rows` holds `2 * dy + 1` rows, each row sharpened across in slot
    /// `row % (2 * dy + 1)`.
    @inline(__always)
    private static func sharpen(_ p: UnsafeMutablePointer<Float>, width w: Int, height h: Int, dx: Int, dy: Int,
                                across: Float, down: Float, rows: UnsafeMutablePointer<Float>) {
        let ring = 2 * dy + 1
        for y in 0..<min(h, dy + 1) {
            sharpenAcross(p, row: y, width: w, dx: dx, amount: across, into: rows + (y % ring) * w)
        }
        // x + a (x - blur), with the blur's 1 2 1 weights folded in.
        let centre = 1 + down / 2, side = down / 4
        for y in 0..<h {
            // Only the rows above y are overwritten yet, so row y + dy still holds the picture.
            if y > 0, y + dy < h {
                sharpenAcross(p, row: y + dy, width: w, dx: dx, amount: across, into: rows + ((y + dy) % ring) * w)
            }
            let up = rows + (max(0, y - dy) % ring) * w
            let mid = rows + (y % ring) * w
            let below = rows + (min(h - 1, y + dy) % ring) * w
            let row = p + y * w
            for x in 0..<w { row[x] = min(1, max(0, centre * mid[x] - side * (up[x] + below[x]))) }
        }
    }

    @inline(__always)
    private static func load(_ p: UnsafeMutablePointer<Float>) -> SIMD4<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
    }

    /// Row `row` of plane `p` sharpened across by `amount` (its blur: 1 2 1 at `dx`, the edge pixels repeated beyond
    /// the edges) into `out`.
    @inline(__always)
    private static func sharpenAcross(_ p: UnsafeMutablePointer<Float>, row: Int, width w: Int, dx: Int,
                                      amount: Float, into out: UnsafeMutablePointer<Float>) {
        let src = p + row * w
        // x + a (x - blur), with the blur's 1 2 1 weights folded in.
        let centre = 1 + amount / 2, side = amount / 4
        @inline(__always) func sharpened(_ left: Float, _ middle: Float, _ right: Float) -> Float {
            centre * middle - side * (left + right)
        }
        // The edges apart, so the middle runs without clamping, four at a time.
        let inner = min(max(dx, w - dx), w)
        for x in 0..<min(dx, w) { out[x] = sharpened(src[0], src[x], src[min(w - 1, x + dx)]) }
        var x = dx
        while x + 4 <= w - dx {
            let v = centre * load(src + x) - side * (load(src + x - dx) + load(src + x + dx))
            UnsafeMutableRawPointer(out + x).storeBytes(of: v, as: SIMD4<Float>.self)
            x += 4
        }
        while x < w - dx { out[x] = sharpened(src[x - dx], src[x], src[x + dx]); x += 1 }
        for x in inner..<w { out[x] = sharpened(src[max(0, x - dx)], src[x], src[w - 1]) }
    }
}
