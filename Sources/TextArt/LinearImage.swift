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
        let feeds = Feeds(vertical, sources: bitmap.height)
        let srcW = bitmap.width

        // One pass over the source, a row at a time: its bytes are linearised while they are resampled across, and
        // the row is added at once into the output rows it feeds. Each output's sums are still formed from zero in
        // ascending source order, as two separate passes would form them, so the output is the same to the bit.
        // Raw pointers throughout: with arrays, bounds checks and uniqueness checks cost more than the arithmetic.
        var sums = [SIMD4<Float>](repeating: .zero, count: count)
        withUnsafeTemporaryAllocation(of: SIMD4<Float>.self, capacity: width) { line in
            bitmap.pixels.withUnsafeBufferPointer { px in
                lut.withUnsafeBufferPointer { lut in
                    sums.withUnsafeMutableBufferPointer { sums in
                        feeds.forEach { y, outputs, weights in
                            let p = px.baseAddress! + y * srcW * 4
                            horizontal.forEach { o, s, wx in
                                var sum = SIMD4<Float>.zero
                                for k in 0..<wx.count {
                                    let q = p + (s + k) * 4
                                    let a = q[3]
                                    let c = SIMD4(lut[Int(q[0])], lut[Int(q[1])], lut[Int(q[2])], 1)
                                    sum += (a == 255 ? c : c * (Float(a) * (1 / 255))) * wx[k]
                                }
                                line[o] = sum
                            }
                            for j in 0..<outputs.count {
                                let wgt = weights[j]
                                let acc = sums.baseAddress! + outputs[j] * width
                                for x in 0..<width { acc[x] += line[x] * wgt }
                            }
                        }
                    }
                }
            }
        }
        // Composite on the background, into planes.
        var outR = [Float](repeating: 0, count: count)
        var outG = [Float](repeating: 0, count: count)
        var outB = [Float](repeating: 0, count: count)
        let backdrop = SIMD4(bgR, bgG, bgB, 0)
        sums.withUnsafeBufferPointer { sums in
            outR.withUnsafeMutableBufferPointer { outR in
                outG.withUnsafeMutableBufferPointer { outG in
                    outB.withUnsafeMutableBufferPointer { outB in
                        for i in 0..<count {
                            let v = sums[i]
                            let c = v + backdrop * (1 - min(1, max(0, v.w)))
                            // Lane by lane, what `clamped(lowerBound: .zero, upperBound: .one)` computes: the
                            // generic SIMD version is not inlined and cost more than the rest of this loop.
                            outR[i] = .minimum(.maximum(c.x, 0), 1)
                            outG[i] = .minimum(.maximum(c.y, 0), 1)
                            outB[i] = .minimum(.maximum(c.z, 0), 1)
                        }
                    }
                }
            }
        }
        self.init(width: width, height: height, r: outR, g: outG, b: outB)
    }
}

/// The other way round from `Contributions`: which outputs, with which weights, each source pixel feeds, in
/// ascending output order.
private struct Feeds {
    var start: [Int]
    var output: [Int]
    var weights: [Float]

    init(_ contributions: Contributions, sources: Int) {
        var start = [Int](repeating: 0, count: sources + 1)
        contributions.forEach { _, first, weights in
            for k in 0..<weights.count { start[first + k + 1] += 1 }
        }
        for s in 0..<sources { start[s + 1] += start[s] }
        var next = start
        var output = [Int](repeating: 0, count: start[sources])
        var fed = [Float](repeating: 0, count: start[sources])
        contributions.forEach { o, first, weights in
            for k in 0..<weights.count {
                output[next[first + k]] = o
                fed[next[first + k]] = weights[k]
                next[first + k] += 1
            }
        }
        self.start = start
        self.output = output
        self.weights = fed
    }

    /// Calls `body` with each source index that feeds any output, the outputs it feeds and its weights in them.
    @inline(__always)
    func forEach(_ body: (_ source: Int, _ outputs: UnsafeBufferPointer<Int>, _ weights: UnsafeBufferPointer<Float>)
        -> Void) {
        start.withUnsafeBufferPointer { start in
            output.withUnsafeBufferPointer { output in
                weights.withUnsafeBufferPointer { weights in
                    for s in 0..<(start.count - 1) where start[s + 1] > start[s] {
                        body(s, UnsafeBufferPointer(rebasing: output[start[s]..<start[s + 1]]),
                             UnsafeBufferPointer(rebasing: weights[start[s]..<start[s + 1]]))
                    }
                }
            }
        }
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
