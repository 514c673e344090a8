#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
    /// Each axis on its own (`Taps`). Shrinking averages the area each output pixel covers: a sample is drawn as a
    /// flat block, and the block's mean is what fits the picture best. (On the quality tool's shrunk pictures in
    /// truecolor sextants at 40x20, sharper kernels scaled to the reduction all scored lower: Lanczos-3 by 0.011,
    /// Catmull-Rom and Lanczos-2 by 0.005; so did boxes 0.8 and 1.2 times as wide, by 0.001 and 0.003.)
    /// Enlarging interpolates with Lanczos-3, sharper than bilinear between a small picture's pixels: the tool's
    /// 10x10 picture went from 0.868 (bilinear) to 0.923 in that mode at 40x20. Lanczos-2 scored 0.910 there, and
    /// over all the tool's pictures 0.0013 lower in that mode (0.0018 at 80x40) and lower in every other mode and
    /// depth but monochrome sextants, 0.0006 higher at both sizes (the 10x10 picture 0.383 against 0.378).
    init(resampling bitmap: Bitmap, width: Int, height: Int, background: RGBA) {
        let count = width * height
        let lut = ColorSpace.linearOfByte
        let bgR = lut[Int(background.r)], bgG = lut[Int(background.g)], bgB = lut[Int(background.b)]
        guard bitmap.width > 0, bitmap.height > 0, count > 0 else {
            self.init(width: width, height: height, r: .init(repeating: bgR, count: count),
                      g: .init(repeating: bgG, count: count), b: .init(repeating: bgB, count: count))
            return
        }
        let across = Taps(source: bitmap.width, destination: width)
        let down = Taps(source: bitmap.height, destination: height)
        let srcW = bitmap.width
        let ringRows = down.maxCount
        var outR = [Float](repeating: 0, count: count)
        var outG = [Float](repeating: 0, count: count)
        var outB = [Float](repeating: 0, count: count)
        let backdrop = SIMD4(bgR, bgG, bgB, 0)

        // Down the picture one output row at a time: the source rows it needs are resampled across once each, into a
        // ring of the last `ringRows` of them (an output row's first source row never goes back), and summed from
        // zero in ascending source order. Shrinking, this gives the same bits as summing all rows into all outputs,
        // without a sum for every output pixel. Raw pointers throughout: with arrays, bounds checks and uniqueness
        // checks cost more than the arithmetic.
        withUnsafeTemporaryAllocation(of: SIMD4<Float>.self, capacity: (ringRows + 1) * width) { buffer in
            let ring = buffer.baseAddress!, sum = ring + ringRows * width
            var nextRow = 0
            bitmap.pixels.withUnsafeBufferPointer { px in
            lut.withUnsafeBufferPointer { lut in
            outR.withUnsafeMutableBufferPointer { outR in
            outG.withUnsafeMutableBufferPointer { outG in
            outB.withUnsafeMutableBufferPointer { outB in
                down.forEach { y, first, weights in
                    nextRow = max(nextRow, first)
                    while nextRow < first + weights.count {
                        // Linearised tap by tap rather than a row first: shrinking, few source pixels feed two
                        // outputs, and storing the row cost more than linearising those twice.
                        let p = px.baseAddress! + nextRow * srcW * 4
                        let line = ring + (nextRow % ringRows) * width
                        across.forEach { o, s, wx in
                            var acc = SIMD4<Float>.zero
                            for k in 0..<wx.count {
                                let q = p + (s &+ k) &* 4
                                let a = q[3]
                                let c = SIMD4(lut[Int(q[0])], lut[Int(q[1])], lut[Int(q[2])], 1)
                                acc += (a == 255 ? c : c * (Float(a) * (1 / 255))) * wx[k]
                            }
                            line[o] = acc
                        }
                        nextRow += 1
                    }
                    sum.update(repeating: .zero, count: width)
                    for k in 0..<weights.count {
                        let line = ring + ((first + k) % ringRows) * width, wgt = weights[k]
                        for x in 0..<width { sum[x] += line[x] * wgt }
                    }
                    // Composite on the background, into planes.
                    let row = y * width
                    for x in 0..<width {
                        let v = sum[x]
                        let c = v + backdrop * (1 - min(1, max(0, v.w)))
                        // Lane by lane, what `clamped(lowerBound: .zero, upperBound: .one)` computes: the generic
                        // SIMD version is not inlined and cost more than the rest of this loop.
                        outR[row + x] = .minimum(.maximum(c.x, 0), 1)
                        outG[row + x] = .minimum(.maximum(c.y, 0), 1)
                        outB[row + x] = .minimum(.maximum(c.z, 0), 1)
                    }
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

/// Which source pixels, with which weights, make each output pixel along one axis, in ascending source order; each
/// output's first source pixel is at or after the one before's.
private struct Taps {
    var start: [Int] = []
    var count: [Int] = []
    var offset: [Int] = []
    var weights: [Float] = []
    /// The most source pixels any output takes.
    var maxCount = 1

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
                // Lanczos-3 around the output's centre; taps past the edges are left out and the rest renormalised.
                // Its ringing is kept, but for the final clamp to 0...1: clamping it to the nearest two source pixels
                // scored 0.013 lower on the 10x10 picture.
                let centre = (Double(o) + 0.5) * scale - 0.5
                let first = max(0, Int((centre - Self.lobes).rounded(.up)))
                let last = min(source - 1, Int((centre + Self.lobes).rounded(.down)))
                let kernel = (first...last).map { Self.lanczos(Double($0) - centre) }
                let total = kernel.reduce(0, +)
                start.append(first)
                count.append(kernel.count)
                for k in kernel { weights.append(Float(k / total)) }
            }
            maxCount = max(maxCount, count[o])
        }
    }

    static let lobes = 3.0

    /// The windowed sinc, sinc(x) sinc(x / lobes), for |x| < lobes; 0 beyond.
    static func lanczos(_ x: Double) -> Double {
        let x = abs(x)
        if x < 1e-9 { return 1 }
        if x >= lobes { return 0 }
        let px = Double.pi * x
        return lobes * sin(px) * sin(px / lobes) / (px * px)
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
