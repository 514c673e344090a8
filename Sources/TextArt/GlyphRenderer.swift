import Cells

/// ASCII modes: a glyph a cell, chosen by tone (`ascii`) or by shape (`shapes`), in the terminal's foreground or
/// in a colour of its own.
///
/// A glyph covers at most about 30% of its cell, so a picture's lightness is scaled down to what the densest glyph
/// shows; the glyph's foreground colour then carries the hue.
enum GlyphRenderer {
    /// Renders `image`, which has one pixel a cell (`ascii`) or `GlyphSet.columns x GlyphSet.rows` (`shapes`).
    static func render(_ image: LinearImage, columns: Int, rows: Int, shapes: Bool,
                       options: TextArtOptions) -> CellBuffer {
        let set = shapes ? GlyphSet.all : GlyphSet.ramp
        let sw = shapes ? GlyphSet.columns : 1, sh = shapes ? GlyphSet.rows : 1
        let n = sw * sh
        let w = image.width
        let scale = set.maxLightness
        // Lightness is scaled by more than the glyphs can show, clipping the highlights: contrast matters more
        // than the brightest tones (this scored best, 1.0 to 2.0 tried).
        let gain: Float = 1.5
        let palette = TerminalPalette.forDepth(options.color)
        let monochrome = options.color == .none
        let diffuse = options.dither == .fs && options.color != .truecolor
        let ordered = options.dither == .ordered && options.color != .truecolor
        // Tone error (monochrome) or colour error (palette) carried to the cells not yet drawn.
        var toneError = [Float](repeating: 0, count: monochrome && diffuse ? columns * rows : 0)
        var colorError = [SIMD3<Float>](repeating: .zero, count: !monochrome && diffuse ? columns * rows : 0)
        let toneStep = scale / Float(max(1, set.glyphs.count - 1)) * 2
        var buffer = CellBuffer(width: columns, height: rows)

        // Raw pointers in the per-pixel loop: array indexing there checked bounds more than it computed.
        withUnsafeTemporaryAllocation(of: Float.self, capacity: n) { target in
            image.withPlanes { red, green, blue in
                for cy in 0..<rows {
                    for cx in 0..<columns {
                        var mean = SIMD3<Float>.zero
                        var shift: Float = 0   // in lightness, for ordered dithering of the tone
                        var extra: Float = 0   // in coverage, for diffused tone error
                        if monochrome {
                            if ordered { shift = (Dithering.threshold(x: cx, y: cy) - 0.5) * toneStep }
                            if diffuse { extra = toneError[cy * columns + cx] }
                        }
                        for sy in 0..<sh {
                            for sx in 0..<sw {
                                let gi = (cy * sh + sy) * w + cx * sw + sx
                                let c = SIMD3(red[gi], green[gi], blue[gi])
                                mean += c
                                let y = ColorSpace.luminance(c.x, c.y, c.z)
                                let tone = min(scale, ColorSpace.lightness(luminance: y) * scale * gain) + shift
                                let wanted = ColorSpace.luminance(lightness: max(0, tone)) + extra
                                target[sy * sw + sx] = max(0, wanted)
                            }
                        }
                        mean /= Float(n)
                        let index = shapes ? bestShape(UnsafePointer(target.baseAddress!), in: set)
                            : set.nearest(lightness: ColorSpace.lightness(target[0]))
                        let coverage = set.coverage[index]
                        let glyph = set.glyphs[index]
                        if monochrome {
                            if diffuse {
                                var wanted: Float = 0
                                for i in 0..<n { wanted += target[i] }
                                spread(wanted / Float(n) - coverage, x: cx, y: cy, columns: columns, rows: rows,
                                       into: &toneError)
                            }
                            buffer[cx, cy] = Cell(glyph)
                            continue
                        }
                        guard coverage > 0 else { buffer[cx, cy] = Cell(" "); continue }
                        // The foreground that makes the glyph's cell, seen from afar, the cell's colour.
                        var wanted = mean
                        if diffuse {
                            wanted = (wanted + colorError[cy * columns + cx])
                                .clamped(lowerBound: .zero, upperBound: .one)
                        }
                        var fg = wanted / coverage
                        let peak = fg.max()
                        if peak > 1 { fg /= peak }
                        let color: CellColor
                        if let palette {
                            if ordered {
                                let s = (Dithering.threshold(x: cx, y: cy) - 0.5)
                                    * BlockRenderer.orderedAmplitude(options.color)
                                fg = SIMD3(ColorSpace.decode(ColorSpace.encode(fg.x) + s),
                                           ColorSpace.decode(ColorSpace.encode(fg.y) + s),
                                           ColorSpace.decode(ColorSpace.encode(fg.z) + s))
                            }
                            let entry = palette.nearest(linear: fg)
                            color = palette.color(entry)
                            if diffuse {
                                spread(wanted - palette.linear[entry] * coverage, x: cx, y: cy, columns: columns,
                                       rows: rows, into: &colorError)
                            }
                        } else {
                            color = .rgb(ColorSpace.byte(linear: fg.x), ColorSpace.byte(linear: fg.y),
                                         ColorSpace.byte(linear: fg.z))
                        }
                        buffer[cx, cy] = Cell(glyph, foreground: color)
                    }
                }
            }
        }
        return buffer
    }

    /// The glyph nearest `target` (the coverage each coarse pixel should have), judged in lightness pixel by
    /// pixel and for the whole cell. (Matching at 4x8 as well scored no better and needs 4 times the pixels.)
    static func bestShape(_ target: UnsafePointer<Float>, in set: GlyphSet) -> Int {
        let n = GlyphSet.pixelCount
        // Weights of the two scales, tuned on the quality tool's images.
        let wp = 1.5 / Float(n), wc: Float = 3
        var best = 0
        var bestError = Float.infinity
        withUnsafeTemporaryAllocation(of: Float.self, capacity: n) { fine in
            var mean: Float = 0
            for i in 0..<n { fine[i] = ColorSpace.lightness(target[i]); mean += target[i] }
            let whole = ColorSpace.lightness(mean / Float(n))
            set.pattern.withUnsafeBufferPointer { pattern in
                set.lightness.withUnsafeBufferPointer { lightness in
                    for g in 0..<lightness.count {
                        // The whole-cell term alone often rules a glyph out.
                        let dc = whole - lightness[g]
                        var total = wc * dc * dc
                        if total >= bestError { continue }
                        let gp = g * n
                        for i in 0..<n {
                            let d = fine[i] - pattern[gp + i]
                            total += wp * d * d
                        }
                        if total < bestError { bestError = total; best = g }
                    }
                }
            }
        }
        return best
    }

    static func spread(_ e: Float, x: Int, y: Int, columns: Int, rows: Int, into error: inout [Float]) {
        for (dx, dy, weight) in Dithering.floydSteinberg {
            let nx = x + dx, ny = y + dy
            if nx >= 0, nx < columns, ny < rows { error[ny * columns + nx] += e * weight }
        }
    }

    static func spread(_ e: SIMD3<Float>, x: Int, y: Int, columns: Int, rows: Int, into error: inout [SIMD3<Float>]) {
        for (dx, dy, weight) in Dithering.floydSteinberg {
            let nx = x + dx, ny = y + dy
            if nx >= 0, nx < columns, ny < rows { error[ny * columns + nx] += e * weight }
        }
    }
}
