import Pixels

/// A picture in linear light, one plane a channel, already composited on the background: what renderers fit
/// glyphs to.
struct LinearImage: Sendable {
    let width: Int
    let height: Int
    var r: [Float]
    var g: [Float]
    var b: [Float]

    init(width: Int, height: Int, r: [Float], g: [Float], b: [Float]) {
        self.width = width
        self.height = height
        self.r = r
        self.g = g
        self.b = b
    }

    /// The three planes as raw pointers, for per-pixel loops that would otherwise spend their time checking bounds.
    @inline(__always)
    func withPlanes<Result>(
        _ body: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> Result
    ) -> Result {
        r.withUnsafeBufferPointer { r in
            g.withUnsafeBufferPointer { g in
                b.withUnsafeBufferPointer { b in body(r.baseAddress!, g.baseAddress!, b.baseAddress!) }
            }
        }
    }

    /// A bitmap resampled to `width`x`height` in linear light with premultiplied alpha, then composited on
    /// `background`.
    ///
    /// Shrinking averages the area each output pixel covers; enlarging interpolates linearly between pixel centres,
    /// since an area average would only repeat pixels.
    init(resampling bitmap: Bitmap, width: Int, height: Int, background: RGBA) {
        let count = width * height
        let lut = ColorSpace.linearOfByte
        let bgR = lut[Int(background.r)], bgG = lut[Int(background.g)], bgB = lut[Int(background.b)]
        guard bitmap.width > 0, bitmap.height > 0, count > 0 else {
            self.init(width: width, height: height, r: .init(repeating: bgR, count: count),
                      g: .init(repeating: bgG, count: count), b: .init(repeating: bgB, count: count))
            return
        }
        let horizontal = Contributions(source: bitmap.width, destination: width)
        let vertical = Contributions(source: bitmap.height, destination: height)
        let srcW = bitmap.width, srcH = bitmap.height

        // Raw pointers throughout: with arrays, bounds checks and uniqueness checks cost more than the arithmetic.
        // The sums are formed in the same order as the plain loops would, so the output is the same to the bit.
        var rows = [SIMD4<Float>](repeating: .zero, count: srcH * width)
        var outR = [Float](repeating: 0, count: count)
        var outG = [Float](repeating: 0, count: count)
        var outB = [Float](repeating: 0, count: count)
        let background = SIMD4(bgR, bgG, bgB, 0)
        withUnsafeTemporaryAllocation(of: SIMD4<Float>.self, capacity: max(srcW, width)) { line in
            bitmap.pixels.withUnsafeBufferPointer { px in
                lut.withUnsafeBufferPointer { lut in
                    rows.withUnsafeMutableBufferPointer { rows in
                        // Horizontal pass: every source row to `width` premultiplied RGBA pixels.
                        for y in 0..<srcH {
                            let p = px.baseAddress! + y * srcW * 4
                            for x in 0..<srcW {
                                let a = p[x * 4 + 3]
                                let c = SIMD4(lut[Int(p[x * 4])], lut[Int(p[x * 4 + 1])], lut[Int(p[x * 4 + 2])], 1)
                                line[x] = a == 255 ? c : c * (Float(a) * (1 / 255))
                            }
                            horizontal.apply(UnsafePointer(line.baseAddress!), to: rows.baseAddress! + y * width)
                        }
                    }
                }
            }
            // Vertical pass into `line` (now a row of the output), then composite on the background.
            rows.withUnsafeBufferPointer { rows in
                outR.withUnsafeMutableBufferPointer { outR in
                    outG.withUnsafeMutableBufferPointer { outG in
                        outB.withUnsafeMutableBufferPointer { outB in
                            vertical.forEach { y, start, weights in
                                let acc = line.baseAddress!
                                acc.update(repeating: .zero, count: width)
                                for k in 0..<weights.count {
                                    let wgt = weights[k]
                                    let src = rows.baseAddress! + (start + k) * width
                                    for x in 0..<width { acc[x] += src[x] * wgt }
                                }
                                let o = y * width
                                for x in 0..<width {
                                    let v = acc[x]
                                    let c = (v + background * (1 - min(1, max(0, v.w))))
                                        .clamped(lowerBound: .zero, upperBound: .one)
                                    outR[o + x] = c.x
                                    outG[o + x] = c.y
                                    outB[o + x] = c.z
                                }
                            }
                        }
                    }
                }
            }
        }
        self.init(width: width, height: height, r: outR, g: outG, b: outB)
    }
}

/// Which source pixels, with which weights, make each output pixel along one axis.
private struct Contributions {
    var start: [Int] = []
    var count: [Int] = []
    var offset: [Int] = []
    var weights: [Float] = []

    init(source: Int, destination: Int) {
        let scale = Double(source) / Double(destination)
        start.reserveCapacity(destination)
        for o in 0..<destination {
            offset.append(weights.count)
            if scale >= 1 {
                // The area [o, o+1) covers in the source.
                let lo = Double(o) * scale, hi = min(Double(source), Double(o + 1) * scale)
                let first = Int(lo), last = min(source - 1, Int((hi - 1e-9).rounded(.up)) - 1)
                start.append(first)
                count.append(last - first + 1)
                for s in first...last {
                    let overlap = min(hi, Double(s + 1)) - max(lo, Double(s))
                    weights.append(Float(max(0, overlap) / scale))
                }
            } else {
                let centre = (Double(o) + 0.5) * scale - 0.5
                let left = Int(centre.rounded(.down))
                let t = Float(centre - Double(left))
                let a = min(source - 1, max(0, left)), b = min(source - 1, max(0, left + 1))
                if a == b {
                    start.append(a); count.append(1); weights.append(1)
                } else {
                    start.append(a); count.append(2); weights.append(1 - t); weights.append(t)
                }
            }
        }
    }

    /// Resamples one row of premultiplied RGBA pixels into `out`.
    @inline(__always)
    func apply(_ line: UnsafePointer<SIMD4<Float>>, to out: UnsafeMutablePointer<SIMD4<Float>>) {
        forEach { o, s, weights in
            var sum = SIMD4<Float>.zero
            for k in 0..<weights.count { sum += line[s + k] * weights[k] }
            out[o] = sum
        }
    }

    /// Calls `body` with each output index, its first source index and the weights of its source pixels.
    @inline(__always)
    func forEach(_ body: (_ output: Int, _ start: Int, _ weights: UnsafeBufferPointer<Float>) -> Void) {
        // The weights' slices are made from the base address: slicing the buffer checks bounds every time.
        start.withUnsafeBufferPointer { start in
            count.withUnsafeBufferPointer { count in
                offset.withUnsafeBufferPointer { offset in
                    weights.withUnsafeBufferPointer { weights in
                        for o in 0..<start.count {
                            body(o, start[o], UnsafeBufferPointer(start: weights.baseAddress! + offset[o],
                                                                  count: count[o]))
                        }
                    }
                }
            }
        }
    }
}
