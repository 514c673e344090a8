import Cells

/// Block and braille modes: each cell shows a pattern of its pixels in a foreground and a background colour.
enum BlockRenderer {
    /// The gamma-encoded step a palette's colours are apart, roughly: how far ordered dithering moves a colour.
    static func orderedAmplitude(_ depth: ColorDepth) -> Float {
        switch depth {
        case .ansi16: 0.5
        case .palette256: 0.16
        case .none, .truecolor: 0
        }
    }

    /// Renders `image`, which has `symbols.columns x symbols.sampleRows` pixels a cell.
    static func render(_ image: LinearImage, columns: Int, rows: Int, symbols: BlockSymbols,
                       options: TextArtOptions) -> CellBuffer {
        if options.color == .none {
            return renderMonochrome(image, columns: columns, rows: rows, symbols: symbols, dither: options.dither)
        }
        return renderColor(image, columns: columns, rows: rows, symbols: symbols, options: options)
    }

    // MARK: Monochrome: every pixel is on (the terminal's foreground) or off.

    static func renderMonochrome(_ image: LinearImage, columns: Int, rows: Int, symbols: BlockSymbols,
                                 dither: Dither) -> CellBuffer {
        let w = image.width, h = image.height
        // How much each pixel wants to be lit: positive lit, negative dark.
        var vote = [Float](repeating: 0, count: w * h)
        var luminance = [Float](repeating: 0, count: w * h)
        image.withPlanes { r, g, b in
            luminance.withUnsafeMutableBufferPointer { luminance in
                for i in 0..<(w * h) { luminance[i] = ColorSpace.luminance(r[i], g[i], b[i]) }
            }
        }
        switch dither {
        case .none:
            // Mid-grey in lightness: the threshold that keeps most of the picture's shapes.
            let threshold = ColorSpace.luminance(lightness: 0.5)
            for i in 0..<(w * h) { vote[i] = luminance[i] - threshold }
        case .ordered:
            for y in 0..<h {
                for x in 0..<w { vote[y * w + x] = luminance[y * w + x] > Dithering.threshold(x: x, y: y) ? 1 : -1 }
            }
        case .fs:
            // Diffused in linear light, so each region keeps its mean brightness as a terminal shows it.
            for y in 0..<h {
                for x in 0..<w {
                    let v = luminance[y * w + x]
                    let bit = v > 0.5
                    vote[y * w + x] = bit ? 1 : -1
                    let e = v - (bit ? 1 : 0)
                    for (dx, dy, weight) in Dithering.floydSteinberg {
                        let nx = x + dx, ny = y + dy
                        if nx >= 0, nx < w, ny < h { luminance[ny * w + nx] += e * weight }
                    }
                }
            }
        }
        var buffer = CellBuffer(width: columns, height: rows)
        let sw = symbols.columns, sh = symbols.sampleRows, bands = symbols.bandCount
        withUnsafeTemporaryAllocation(of: Float.self, capacity: symbols.drawableSums.slotCount) { scratch in
            // The cell's votes a band, then the drawable masks' sums.
            let cellVotes = scratch.baseAddress!
            vote.withUnsafeBufferPointer { vote in
                symbols.withShares { shareStart, shareBand, shareWeight in
                    for cy in 0..<rows {
                        for cx in 0..<columns {
                            cellVotes.update(repeating: 0, count: bands)
                            for sy in 0..<sh {
                                let row = vote.baseAddress! + (cy * sh + sy) * w + cx * sw
                                for k in shareStart[sy]..<shareStart[sy + 1] {
                                    let band = cellVotes + shareBand[k], weight = shareWeight[k]
                                    for sx in 0..<sw { band[sx] += row[sx] * weight }
                                }
                            }
                            let glyph: Character
                            if symbols.isComplete {
                                var mask = 0
                                for i in 0..<bands where cellVotes[i] > 0 { mask |= 1 << i }
                                glyph = symbols.drawableGlyphs[mask]
                            } else {
                                glyph = symbols.drawableGlyphs[bestDrawable(votes: cellVotes, symbols)]
                            }
                            buffer[cx, cy] = Cell(glyph)
                        }
                    }
                }
            }
        }
        return buffer
    }

    /// The index in `drawable` of the mask whose lit bands want most to be lit (the first of equals), from the
    /// bands' votes at the start of `votes` (`drawableSums.slotCount` entries).
    static func bestDrawable(votes: UnsafeMutablePointer<Float>, _ symbols: BlockSymbols) -> Int {
        symbols.drawableSums.evaluate(votes)
        var best = 0
        var bestScore = -Float.infinity
        symbols.drawableSums.slot.withUnsafeBufferPointer { slot in
            for j in 0..<slot.count {
                let score = slot[j] < 0 ? 0 : votes[slot[j]]
                if score > bestScore { bestScore = score; best = j }
            }
        }
        return best
    }

    // MARK: Colour: the best split of a cell's pixels into two colours.

    static func renderColor(_ image: LinearImage, columns: Int, rows: Int, symbols: BlockSymbols,
                            options: TextArtOptions) -> CellBuffer {
        let palette = TerminalPalette.forDepth(options.color)
        let n = symbols.pixelCount, bands = symbols.bandCount
        let sw = symbols.columns, sh = symbols.sampleRows
        let w = image.width, h = image.height
        let diffusing = palette != nil && options.dither == .fs
        let ordered = palette != nil && options.dither == .ordered
        let amplitude = orderedAmplitude(options.color)
        let isBraille = symbols.pixelCount == 8 && bands == 8
        var error = [SIMD3<Float>](repeating: .zero, count: diffusing ? w * h : 0)
        var buffer = CellBuffer(width: columns, height: rows)
        let gammaOfLinear = ColorSpace.gammaOfLinear, lightnessOfLuminance = ColorSpace.lightnessOfLuminance
        let bandScales = symbols.bandSizes.map { 1 / $0 }

        withUnsafeTemporaryAllocation(of: SIMD3<Float>.self, capacity: n + bands + symbols.splitSums.slotCount) {
            scratch in
            // The cell's pixels in linear light (kept for diffusion); each band's sum of them; and each band's colour
            // as judged, weighted by its size, followed by the splits' sums of those.
            let pixels = scratch.baseAddress!, lin = pixels + n, sel = lin + bands
            // The tables the loop reads, as raw pointers, one level of indentation for all of them.
            image.withPlanes { r, g, b in
                gammaOfLinear.withUnsafeBufferPointer { gamma in
                lightnessOfLuminance.withUnsafeBufferPointer { lightness in
                bandScales.withUnsafeBufferPointer { bandScales in
                symbols.bandSizes.withUnsafeBufferPointer { bandSizes in
                symbols.withShares { shareStart, shareBand, shareWeight in
                    for cy in 0..<rows {
                        for cx in 0..<columns {
                            lin.update(repeating: .zero, count: bands)
                            for sy in 0..<sh {
                                let gy = cy * sh + sy, row = gy * w + cx * sw
                                for sx in 0..<sw {
                                    let gi = row + sx
                                    var c = SIMD3(r[gi], g[gi], b[gi])
                                    if diffusing {
                                        c = (c + error[gi]).clamped(lowerBound: .zero, upperBound: .one)
                                    }
                                    if ordered {
                                        var s = SIMD3(gamma[ColorSpace.step(c.x)], gamma[ColorSpace.step(c.y)],
                                                      gamma[ColorSpace.step(c.z)])
                                        s += SIMD3(repeating: (Dithering.threshold(x: cx * sw + sx, y: gy) - 0.5)
                                                   * amplitude)
                                        s = s.clamped(lowerBound: .zero, upperBound: .one)
                                        c = SIMD3(ColorSpace.decode(s.x), ColorSpace.decode(s.y),
                                                  ColorSpace.decode(s.z))
                                    }
                                    if diffusing { pixels[sy * sw + sx] = c }
                                    for k in shareStart[sy]..<shareStart[sy + 1] {
                                        lin[shareBand[k] + sx] += c * shareWeight[k]
                                    }
                                }
                            }
                            for i in 0..<bands {
                                sel[i] = judged(lin[i] * bandScales[i], gamma: gamma, lightness: lightness)
                                    * bandSizes[i]
                            }
                            var choice = bestSplit(sel: sel, lin: lin, symbols: symbols, palette: palette)
                            if isBraille, choice.mask.nonzeroBitCount * 2 > n {
                                // Dots are small: let the background carry the colour most of the cell has.
                                choice = Split(mask: ~choice.mask & ((1 << n) - 1), glyph: choice.complement ?? " ",
                                               complement: choice.glyph, fg: choice.bg, bg: choice.fg)
                            }
                            let bg = cellColor(choice.bg, palette: palette)
                            let fg = cellColor(choice.fg, palette: palette)
                            if choice.mask == 0 || fg == bg {
                                buffer[cx, cy] = Cell(" ", foreground: bg, background: bg)
                            } else {
                                buffer[cx, cy] = Cell(choice.glyph, foreground: fg, background: bg)
                            }

                            if diffusing, let palette {
                                let fgLinear = palette.linear[choice.fg.entry]
                                let bgLinear = palette.linear[choice.bg.entry]
                                for sy in 0..<sh {
                                    for sx in 0..<sw {
                                        // A sample pixel straddling two bands shows each one's colour for its share.
                                        var shown = SIMD3<Float>.zero
                                        for k in shareStart[sy]..<shareStart[sy + 1] {
                                            let lit = choice.mask & (1 << (shareBand[k] + sx)) != 0
                                            shown += (lit ? fgLinear : bgLinear) * shareWeight[k]
                                        }
                                        let e = pixels[sy * sw + sx] - shown
                                        diffuse(e, x: cx * sw + sx, y: cy * sh + sy, cellWidth: sw,
                                                cellHeight: sh, width: w, height: h, into: &error)
                                    }
                                }
                            }
                        }
                    }
                }
                }
                }
                }
                }
            }
        }
        return buffer
    }

    /// A linear colour where a split's fit is judged: lightness (L*) first, and the gamma-encoded red-green and
    /// yellow-blue differences at a fifth of its weight.
    ///
    /// Shapes are seen in lightness: a split along a lightness edge shows the picture's structure, one along an edge
    /// of hue alone much less of it. Keeping some weight on hue still splits a red flower from green leaves of the
    /// same lightness. (Against judging in gamma-encoded RGB this raised the quality tool's score by 0.002 at
    /// 40x20; full weight on hue (OKLab-like) by half that, none at all by a little more.)
    @inline(__always)
    static func judged(_ c: SIMD3<Float>, gamma: UnsafeBufferPointer<Float>, lightness: UnsafeBufferPointer<Float>)
        -> SIMD3<Float> {
        let g = SIMD3(gamma[ColorSpace.step(c.x)], gamma[ColorSpace.step(c.y)], gamma[ColorSpace.step(c.z)])
        let l = lightness[ColorSpace.step(ColorSpace.luminance(c.x, c.y, c.z))]
        return SIMD3(l, hueWeight * (g.x - g.y), hueWeight * 0.5 * (g.x + g.y - 2 * g.z))
    }

    static let hueWeight: Float = 0.2

    /// A colour a split chose: a palette entry, or an exact linear colour for truecolor.
    struct Shade: Equatable {
        var entry: Int
        var linear: SIMD3<Float>
    }

    struct Split {
        var mask: Int
        var glyph: Character
        var complement: Character?
        var fg: Shade
        var bg: Shade
    }

    static func cellColor(_ shade: Shade, palette: TerminalPalette?) -> CellColor {
        if let palette { return palette.color(shade.entry) }
        return .rgb(ColorSpace.byte(linear: shade.linear.x), ColorSpace.byte(linear: shade.linear.y),
                    ColorSpace.byte(linear: shade.linear.z))
    }

    /// The split of a cell's bands (mask: the foreground's bands) whose two colours fit best.
    ///
    /// `sel` holds each band's colour as judged times its size (and room for the splits' sums after them), `lin`
    /// each band's sum in linear light. A split's fit is judged on the bands' mean colours, each converted as a
    /// whole: that is how the eye (and the quality tool's coarser scales) sees a band from afar. Its colours are the
    /// means in linear light, which is how a terminal's pixels mix, snapped to the palette if there is one. (Judging
    /// the best few splits again after snapping them scored worse: it favours flat cells.)
    static func bestSplit(sel: UnsafeMutablePointer<SIMD3<Float>>, lin: UnsafePointer<SIMD3<Float>>,
                          symbols: BlockSymbols, palette: TerminalPalette?) -> Split {
        let bands = symbols.bandCount
        var total = SIMD3<Float>.zero
        for i in 0..<bands { total += sel[i] }
        // Every split's foreground sum at once; the sum of squares is the same for every split, so this is all that
        // differs between their errors. Split 0 (one colour) comes first.
        symbols.splitSums.evaluate(sel)
        var best = 0
        var bestScore = (total * total).sum() / Float(symbols.pixelCount)
        symbols.splitSums.slot.withUnsafeBufferPointer { slot in
            symbols.splitScales.withUnsafeBufferPointer { scales in
                for j in 1..<slot.count {
                    let f = sel[slot[j]]
                    let b = total - f
                    let score = (f * f).sum() * scales[j].x + (b * b).sum() * scales[j].y
                    if score > bestScore { bestScore = score; best = j }
                }
            }
        }
        let mask = symbols.splits[best]
        var f = SIMD3<Float>.zero, b = SIMD3<Float>.zero
        for i in 0..<bands {
            if mask & (1 << i) != 0 { f += lin[i] } else { b += lin[i] }
        }
        let scale = symbols.splitScales[best]
        // Split 0 has no foreground: both colours are the whole cell's mean.
        if mask == 0 { b *= scale.y; f = b } else { f *= scale.x; b *= scale.y }
        let glyph = symbols.splitGlyphs[best], complement = symbols.complementGlyphs[best]
        guard let palette else {
            return Split(mask: mask, glyph: glyph, complement: complement, fg: Shade(entry: 0, linear: f),
                         bg: Shade(entry: 0, linear: b))
        }
        let fe = palette.nearest(linear: f), be = palette.nearest(linear: b)
        return Split(mask: mask, glyph: glyph, complement: complement,
                     fg: Shade(entry: fe, linear: palette.linear[fe]), bg: Shade(entry: be, linear: palette.linear[be]))
    }

    /// Floyd–Steinberg at cell granularity: a pixel's error goes to its neighbours in cells not yet drawn, the
    /// weights of the others shared among them.
    static func diffuse(_ e: SIMD3<Float>, x: Int, y: Int, cellWidth: Int, cellHeight: Int, width: Int, height: Int,
                        into error: inout [SIMD3<Float>]) {
        let cx = x / cellWidth, cy = y / cellHeight
        var total: Float = 0
        for (dx, dy, weight) in Dithering.floydSteinberg {
            let nx = x + dx, ny = y + dy
            guard nx >= 0, nx < width, ny < height else { continue }
            let ncx = nx / cellWidth, ncy = ny / cellHeight
            if ncy > cy || (ncy == cy && ncx > cx) { total += weight }
        }
        guard total > 0 else { return }
        for (dx, dy, weight) in Dithering.floydSteinberg {
            let nx = x + dx, ny = y + dy
            guard nx >= 0, nx < width, ny < height else { continue }
            let ncx = nx / cellWidth, ncy = ny / cellHeight
            if ncy > cy || (ncy == cy && ncx > cx) { error[ny * width + nx] += e * (weight / total) }
        }
    }
}
