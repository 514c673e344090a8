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

    /// Renders `image`, which has `symbols.columns x symbols.rows` pixels a cell.
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
        let sw = symbols.columns, sh = symbols.rows, bands = symbols.bandCount
        let sums = symbols.drawableSums
        withUnsafeTemporaryAllocation(of: Float.self, capacity: bands + sums.stepCount) { scratch in
            let cellVotes = scratch.baseAddress!, maskSums = cellVotes + bands
            vote.withUnsafeBufferPointer { vote in
                symbols.bandRowOfRow.withUnsafeBufferPointer { bandRow in
                    for cy in 0..<rows {
                        for cx in 0..<columns {
                            cellVotes.update(repeating: 0, count: bands)
                            for sy in 0..<sh {
                                let row = vote.baseAddress! + (cy * sh + sy) * w + cx * sw
                                let band = bandRow[sy] * sw
                                for sx in 0..<sw { cellVotes[band + sx] += row[sx] }
                            }
                            var mask = 0
                            if symbols.isComplete {
                                for i in 0..<bands where cellVotes[i] > 0 { mask |= 1 << i }
                            } else {
                                mask = bestDrawable(votes: cellVotes, symbols, sums: maskSums)
                            }
                            buffer[cx, cy] = Cell(symbols.glyphs[mask]!)
                        }
                    }
                }
            }
        }
        return buffer
    }

    /// The drawable mask whose lit bands want most to be lit (the first of equals).
    static func bestDrawable(votes: UnsafePointer<Float>, _ symbols: BlockSymbols,
                             sums: UnsafeMutablePointer<Float>) -> Int {
        symbols.drawableSums.evaluate(votes, into: sums)
        var best = 0
        var bestScore = -Float.infinity
        symbols.drawable.withUnsafeBufferPointer { drawable in
            symbols.drawableSums.step.withUnsafeBufferPointer { step in
                for j in 0..<drawable.count {
                    let score = sums[step[j]]
                    if score > bestScore { bestScore = score; best = drawable[j] }
                }
            }
        }
        return best
    }

    // MARK: Colour: the best split of a cell's pixels into two colours.

    static func renderColor(_ image: LinearImage, columns: Int, rows: Int, symbols: BlockSymbols,
                            options: TextArtOptions) -> CellBuffer {
        let palette = TerminalPalette.forDepth(options.color)
        let n = symbols.pixelCount, bands = symbols.bandCount
        let sw = symbols.columns, sh = symbols.rows
        let w = image.width, h = image.height
        let diffusing = palette != nil && options.dither == .fs
        let ordered = palette != nil && options.dither == .ordered
        let amplitude = orderedAmplitude(options.color)
        let isBraille = symbols.pixelCount == 8
        var error = [SIMD3<Float>](repeating: .zero, count: diffusing ? w * h : 0)
        var buffer = CellBuffer(width: columns, height: rows)
        let gammaOfLinear = ColorSpace.gammaOfLinear
        let bandSizes = (0..<bands).map { Float(symbols.bandHeights[$0 / sw]) }

        withUnsafeTemporaryAllocation(of: SIMD3<Float>.self, capacity: n + 2 * bands + symbols.splitSums.stepCount) {
            scratch in
            // The cell's pixels in linear light; each band's sum of them; and each band's colour as judged, weighted
            // by its size.
            let pixels = scratch.baseAddress!, lin = pixels + n, sel = lin + bands, sums = sel + bands
            image.withPlanes { r, g, b in
                gammaOfLinear.withUnsafeBufferPointer { gamma in
                    symbols.bandRowOfRow.withUnsafeBufferPointer { bandRow in
                        for cy in 0..<rows {
                            for cx in 0..<columns {
                                lin.update(repeating: .zero, count: bands)
                                for sy in 0..<sh {
                                    let band = bandRow[sy] * sw
                                    for sx in 0..<sw {
                                        let gx = cx * sw + sx, gy = cy * sh + sy, gi = gy * w + gx
                                        var c = SIMD3(r[gi], g[gi], b[gi])
                                        if diffusing { c = c + error[gi] }
                                        c = c.clamped(lowerBound: .zero, upperBound: .one)
                                        if ordered {
                                            var s = SIMD3(gamma[ColorSpace.step(c.x)], gamma[ColorSpace.step(c.y)],
                                                          gamma[ColorSpace.step(c.z)])
                                            s += SIMD3(repeating: (Dithering.threshold(x: gx, y: gy) - 0.5)
                                                       * amplitude)
                                            s = s.clamped(lowerBound: .zero, upperBound: .one)
                                            c = SIMD3(ColorSpace.decode(s.x), ColorSpace.decode(s.y),
                                                      ColorSpace.decode(s.z))
                                        }
                                        pixels[sy * sw + sx] = c
                                        lin[band + sx] += c
                                    }
                                }
                                for i in 0..<bands {
                                    let size = bandSizes[i]
                                    sel[i] = judged(lin[i] / size, gamma: gamma) * size
                                }
                                var choice = bestSplit(sel: sel, lin: lin, symbols: symbols, sums: sums,
                                                       palette: palette)
                                if isBraille, choice.mask.nonzeroBitCount * 2 > n {
                                    // Dots are small: let the background carry the colour most of the cell has.
                                    choice = Split(mask: ~choice.mask & ((1 << n) - 1), fg: choice.bg, bg: choice.fg)
                                }
                                let bg = cellColor(choice.bg, palette: palette)
                                let fg = cellColor(choice.fg, palette: palette)
                                if choice.mask == 0 || fg == bg {
                                    buffer[cx, cy] = Cell(" ", foreground: bg, background: bg)
                                } else {
                                    buffer[cx, cy] = Cell(symbols.glyphs[choice.mask]!, foreground: fg, background: bg)
                                }

                                if diffusing, let palette {
                                    for sy in 0..<sh {
                                        for sx in 0..<sw {
                                            let band = bandRow[sy] * sw + sx
                                            let shown = choice.mask & (1 << band) != 0 ? choice.fg : choice.bg
                                            let e = pixels[sy * sw + sx] - palette.linear[shown.entry]
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
    static func judged(_ c: SIMD3<Float>, gamma: UnsafeBufferPointer<Float>) -> SIMD3<Float> {
        let g = SIMD3(gamma[ColorSpace.step(c.x)], gamma[ColorSpace.step(c.y)], gamma[ColorSpace.step(c.z)])
        let l = ColorSpace.lightness(luminance: ColorSpace.luminance(c.x, c.y, c.z))
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
    /// `sel` holds each band's colour as judged times its size, `lin` each band's sum in linear light. A split's fit
    /// is judged on the bands' mean colours, each converted as a whole: that is how the eye (and the quality tool's
    /// coarser scales) sees a band from afar. Its colours are the means in linear light, which is how a terminal's
    /// pixels mix, snapped to the palette if there is one. (Judging the best few splits again after snapping them
    /// scored worse: it favours flat cells.)
    static func bestSplit(sel: UnsafePointer<SIMD3<Float>>, lin: UnsafePointer<SIMD3<Float>>,
                          symbols: BlockSymbols, sums: UnsafeMutablePointer<SIMD3<Float>>,
                          palette: TerminalPalette?) -> Split {
        let bands = symbols.bandCount
        var total = SIMD3<Float>.zero
        for i in 0..<bands { total += sel[i] }
        let pixels = Float(symbols.pixelCount)
        // Every split's foreground sum at once; the sum of squares is the same for every split, so this is all that
        // differs between their errors.
        symbols.splitSums.evaluate(sel, into: sums)
        var best = 0
        var bestScore = -Float.infinity
        symbols.splits.withUnsafeBufferPointer { splits in
            symbols.splitSizes.withUnsafeBufferPointer { sizes in
                symbols.splitSums.step.withUnsafeBufferPointer { step in
                    for j in 0..<splits.count {
                        let score: Float
                        if sizes[j].x == 0 {
                            score = (total * total).sum() / pixels
                        } else {
                            let f = sums[step[j]]
                            let b = total - f
                            score = (f * f).sum() / sizes[j].x + (b * b).sum() / sizes[j].y
                        }
                        if score > bestScore { bestScore = score; best = j }
                    }
                }
            }
        }
        let mask = symbols.splits[best]
        let (f, b) = means(lin, bands: bands, mask: mask, sizes: symbols.splitSizes[best])
        guard let palette else {
            return Split(mask: mask, fg: Shade(entry: 0, linear: f), bg: Shade(entry: 0, linear: b))
        }
        let fe = palette.nearest(linear: f), be = palette.nearest(linear: b)
        return Split(mask: mask, fg: Shade(entry: fe, linear: palette.linear[fe]),
                     bg: Shade(entry: be, linear: palette.linear[be]))
    }

    /// The linear mean of the bands in `mask` and of the others, from the bands' sums and the two sides' sizes.
    static func means(_ lin: UnsafePointer<SIMD3<Float>>, bands: Int, mask: Int, sizes: SIMD2<Float>)
        -> (SIMD3<Float>, SIMD3<Float>) {
        var f = SIMD3<Float>.zero, b = SIMD3<Float>.zero
        for i in 0..<bands {
            if mask & (1 << i) != 0 { f += lin[i] } else { b += lin[i] }
        }
        if sizes.x == 0 { return (b / sizes.y, b / sizes.y) }
        if sizes.y == 0 { return (f / sizes.x, f / sizes.x) }
        return (f / sizes.x, b / sizes.y)
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
