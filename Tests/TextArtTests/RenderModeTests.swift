import Cells
import Pixels
import Testing
@testable import TextArt

/// A bitmap drawn by a function of the pixel position.
func bitmap(width: Int, height: Int, _ color: (Int, Int) -> RGBA) -> Bitmap {
    var b = Bitmap(width: width, height: height, fill: RGBA(r: 0, g: 0, b: 0))
    for y in 0..<height { for x in 0..<width { b[x, y] = color(x, y) } }
    return b
}

let white = RGBA(r: 255, g: 255, b: 255)
let black = RGBA(r: 0, g: 0, b: 0)
let red = RGBA(r: 255, g: 0, b: 0)

@Suite struct BlockModeTests {
    @Test func halfBlockCellOfRedOverBlackHasRedForegroundAndBlackBackground() {
        let picture = bitmap(width: 4, height: 4) { _, y in y < 2 ? red : black }
        let cells = TextArtRenderer.render(picture, columns: 1, rows: 1,
                                           options: TextArtOptions(mode: .blocks, color: .truecolor))
        #expect(cells[0, 0] == Cell("▀", foreground: .rgb(255, 0, 0), background: .rgb(0, 0, 0)))
    }

    @Test func monochromeHalfBlocksFollowABlackWhiteSplit() {
        let options = TextArtOptions(mode: .blocks, color: .none)
        let top = bitmap(width: 2, height: 2) { _, y in y == 0 ? white : black }
        let bottom = bitmap(width: 2, height: 2) { _, y in y == 1 ? white : black }
        #expect(TextArtRenderer.render(top, columns: 1, rows: 1, options: options)[0, 0] == Cell("▀"))
        #expect(TextArtRenderer.render(bottom, columns: 1, rows: 1, options: options)[0, 0] == Cell("▄"))
        #expect(TextArtRenderer.render(Bitmap(width: 2, height: 2, fill: white), columns: 1, rows: 1,
                                       options: options)[0, 0] == Cell("█"))
        #expect(TextArtRenderer.render(Bitmap(width: 2, height: 2, fill: black), columns: 1, rows: 1,
                                       options: options)[0, 0] == Cell(" "))
    }

    @Test func quadrantsPickTheQuarterThatIsLit() {
        let options = TextArtOptions(mode: .quadrants, color: .none)
        let expected: [(Int, Int, Character)] = [(0, 0, "▘"), (1, 0, "▝"), (0, 1, "▖"), (1, 1, "▗")]
        for (qx, qy, glyph) in expected {
            let picture = bitmap(width: 4, height: 4) { x, y in x / 2 == qx && y / 2 == qy ? white : black }
            #expect(TextArtRenderer.render(picture, columns: 1, rows: 1, options: options)[0, 0] == Cell(glyph))
        }
    }

    @Test func colourQuadrantsSplitLeftFromRight() {
        let picture = bitmap(width: 2, height: 2) { x, _ in x == 0 ? red : white }
        let cell = TextArtRenderer.render(picture, columns: 1, rows: 1,
                                          options: TextArtOptions(mode: .quadrants, color: .truecolor))[0, 0]
        #expect(cell == Cell("▌", foreground: .rgb(255, 0, 0), background: .rgb(255, 255, 255)))
    }

    @Test func sextantsDrawTheTopThird() {
        let picture = bitmap(width: 2, height: 6) { _, y in y < 2 ? white : black }
        let mono = TextArtRenderer.render(picture, columns: 1, rows: 1,
                                          options: TextArtOptions(mode: .sextants, color: .none))
        #expect(mono[0, 0] == Cell("\u{1FB02}"))  // 🬂 upper third
        let colour = TextArtRenderer.render(picture, columns: 1, rows: 1,
                                            options: TextArtOptions(mode: .sextants, color: .truecolor))
        #expect(colour[0, 0] == Cell("\u{1FB02}", foreground: .rgb(255, 255, 255), background: .rgb(0, 0, 0)))
    }

    @Test func sextantModeAlsoDrawsHalfBlocks() {
        // A top half is no sextant (thirds); the mode falls back to the half block that fits exactly.
        let picture = bitmap(width: 2, height: 6) { _, y in y < 3 ? white : black }
        let cell = TextArtRenderer.render(picture, columns: 1, rows: 1,
                                          options: TextArtOptions(mode: .sextants, color: .truecolor))[0, 0]
        #expect(cell == Cell("▀", foreground: .rgb(255, 255, 255), background: .rgb(0, 0, 0)))
    }

    @Test func sextantBandsFallOnThirdsHalvesAndQuarters() {
        // Edges at 3, 4, 6, 8 and 9 of 12 rows: the cell is judged on 6 bands of rows, 12 bands in all.
        #expect(BlockSymbols.sextants.bandHeights == [3, 1, 2, 2, 1, 3])
        #expect(BlockSymbols.sextants.bandCount == 12)
        #expect(BlockSymbols.sextants.sampleRows == 6)
        #expect(BlockSymbols.quadrants.bandHeights == [1, 1])
    }

    @Test func quarterBarsFollowAnEdgeAQuarterUp() {
        // Given a cell whose bottom sixth is white: no glyph has an edge there, the nearest is a quarter up
        let picture = bitmap(width: 2, height: 6) { _, y in y == 5 ? white : black }
        // When it is drawn in truecolor sextants
        let cell = TextArtRenderer.render(picture, columns: 1, rows: 1,
                                          options: TextArtOptions(mode: .sextants, color: .truecolor))[0, 0]
        // Then the lower quarter bar draws it.
        #expect(cell.glyph == "▂")
    }

    @Test func sampleRowsCoarserThanTheGlyphsShareTheirBands() {
        // Glyph edges at thirds of 6 rows, sampled on 2 rows: the middle band gets half of each sample row.
        let thirds = BlockSymbols(columns: 1, rows: 6, sampleRows: 2, glyphs: [0: " ", 0b11: "a", 0b1100: "b"])
        #expect(thirds.bandHeights == [2, 2, 2])
        #expect(thirds.shareStart == [0, 2, 4])
        #expect(thirds.shareBand == [0, 1, 1, 2])
        #expect(thirds.shareWeight.map { ($0 * 3).rounded() } == [2, 1, 1, 2])
        #expect(thirds.bandSizes.map { ($0 * 3).rounded() } == [2, 2, 2])
    }

    @Test func subsetSumsMatchPlainSums() {
        let symbols = BlockSymbols.sextants
        let values = (0..<symbols.bandCount).map { Float($0 * $0 + 1) }
        let sums = symbols.splitSums
        var buffer = values + [Float](repeating: 0, count: sums.slotCount - values.count)
        buffer.withUnsafeMutableBufferPointer { sums.evaluate($0.baseAddress!) }
        for (mask, slot) in zip(symbols.splits, sums.slot) {
            let plain = values.indices.reduce(Float(0)) { mask & (1 << $1) != 0 ? $0 + values[$1] : $0 }
            #expect((slot < 0 ? 0 : buffer[slot]) == plain, "mask \(mask)")
        }
        // About one addition a split, not one a band.
        #expect(sums.left.count <= symbols.splits.count + symbols.bandCount)
    }

    @Test func sextantGlyphsAreTheUnicodeOnes() {
        let glyphs = BlockSymbols.sextantGlyphs
        #expect(glyphs[1] == "\u{1FB00}")
        #expect(glyphs[20] == "\u{1FB13}")
        #expect(glyphs[21] == "▌" && glyphs[42] == "▐" && glyphs[63] == "█")
        #expect(glyphs[22] == "\u{1FB14}")
        #expect(glyphs[62] == "\u{1FB3B}")
        #expect(Set(glyphs).count == 64)
    }

    @Test func brailleLightsTheDotsOfBrightPixels() {
        let options = TextArtOptions(mode: .braille, color: .none)
        let topLeft = bitmap(width: 2, height: 4) { x, y in x == 0 && y == 0 ? white : black }
        #expect(TextArtRenderer.render(topLeft, columns: 1, rows: 1, options: options)[0, 0] == Cell("⠁"))
        let bottomRight = bitmap(width: 2, height: 4) { x, y in x == 1 && y == 3 ? white : black }
        #expect(TextArtRenderer.render(bottomRight, columns: 1, rows: 1, options: options)[0, 0] == Cell("⢀"))
        #expect(TextArtRenderer.render(Bitmap(width: 2, height: 4, fill: white), columns: 1, rows: 1,
                                       options: options)[0, 0] == Cell("⣿"))
    }

    @Test func colourBrailleLetsTheBackgroundCarryTheMajorityColour() {
        let picture = bitmap(width: 2, height: 4) { x, y in x == 0 && y == 0 ? white : red }
        let cell = TextArtRenderer.render(picture, columns: 1, rows: 1,
                                          options: TextArtOptions(mode: .braille, color: .truecolor))[0, 0]
        #expect(cell == Cell("⠁", foreground: .rgb(255, 255, 255), background: .rgb(255, 0, 0)))
    }

    @Test func aFlatCellIsASpaceInItsBackgroundColour() {
        for mode in [RenderMode.blocks, .quadrants, .sextants, .braille] {
            let cell = TextArtRenderer.render(Bitmap(width: 8, height: 8, fill: red), columns: 1, rows: 1,
                                              options: TextArtOptions(mode: mode, color: .truecolor))[0, 0]
            #expect(cell == Cell(" ", foreground: .rgb(255, 0, 0), background: .rgb(255, 0, 0)), "\(mode)")
        }
    }
}

@Suite struct GlyphModeTests {
    /// A horizontal ramp from black to white, one cell a step.
    let ramp = bitmap(width: 64, height: 2) { x, _ in
        let v = UInt8(x * 255 / 63)
        return RGBA(r: v, g: v, b: v)
    }

    @Test func asciiGradientIsMonotoneInTheRamp() {
        let cells = TextArtRenderer.render(ramp, columns: 32, rows: 1,
                                           options: TextArtOptions(mode: .ascii, color: .none))
        let coverage = (0..<32).map { x in
            GlyphSet.ramp.coverage[GlyphSet.ramp.glyphs.firstIndex(of: cells[x, 0].glyph)!]
        }
        #expect(coverage == coverage.sorted())
        #expect(cells[0, 0].glyph == " ")
        #expect(cells[31, 0].glyph == GlyphSet.ramp.glyphs.last)
        #expect(Set(coverage).count >= 10)
        #expect(cells.cells.allSatisfy { $0.style == .plain })
    }

    @Test func theRampsNearestGlyphIsTheOneAScanFinds() {
        // Given the tone ramp, and lightnesses across and beyond its range, its own glyphs' included
        let set = GlyphSet.ramp
        let probes = (0...2400).map { Float($0) / 2000 - 0.1 } + set.lightness
        // Then the search finds the glyph a scan for the first smallest distance finds
        for l in probes {
            let scan = set.lightness.indices.min { abs(set.lightness[$0] - l) < abs(set.lightness[$1] - l) }!
            #expect(set.nearest(lightness: l) == scan, "lightness \(l)")
        }
        #expect(set.lightness == set.lightness.sorted())
    }

    @Test func asciiBlackAndWhiteAreEmptyAndDense() {
        let options = TextArtOptions(mode: .ascii, color: .none)
        #expect(TextArtRenderer.render(Bitmap(width: 3, height: 3, fill: black), columns: 1, rows: 1,
                                       options: options)[0, 0] == Cell(" "))
        #expect(TextArtRenderer.render(Bitmap(width: 3, height: 3, fill: white), columns: 1, rows: 1,
                                       options: options)[0, 0] == Cell("@"))
    }

    @Test func shapesFollowAnEdge() {
        let options = TextArtOptions(mode: .shapes, color: .none)
        let left = bitmap(width: 8, height: 16) { x, _ in x < 4 ? white : black }
        let right = bitmap(width: 8, height: 16) { x, _ in x >= 4 ? white : black }
        let bottom = bitmap(width: 8, height: 16) { _, y in y >= 12 ? white : black }
        func sides(_ glyph: Character) -> (left: Float, right: Float, top: Float, bottom: Float) {
            let fine = Array(GlyphSet.fineCoverage(of: glyph)!).map(Float.init)
            var l: Float = 0, r: Float = 0, t: Float = 0, b: Float = 0
            for y in 0..<16 {
                for x in 0..<8 {
                    if x < 4 { l += fine[y * 8 + x] } else { r += fine[y * 8 + x] }
                    if y < 8 { t += fine[y * 8 + x] } else { b += fine[y * 8 + x] }
                }
            }
            return (l, r, t, b)
        }
        let l = sides(TextArtRenderer.render(left, columns: 1, rows: 1, options: options)[0, 0].glyph)
        let r = sides(TextArtRenderer.render(right, columns: 1, rows: 1, options: options)[0, 0].glyph)
        let b = sides(TextArtRenderer.render(bottom, columns: 1, rows: 1, options: options)[0, 0].glyph)
        #expect(l.left > 2 * l.right)
        #expect(r.right > 2 * r.left)
        #expect(b.bottom > 2 * b.top)
    }

    @Test func colourAsciiPutsTheColourInTheForeground() {
        for mode in [RenderMode.ascii, .shapes] {
            let cell = TextArtRenderer.render(Bitmap(width: 4, height: 8, fill: red), columns: 1, rows: 1,
                                              options: TextArtOptions(mode: mode, color: .truecolor))[0, 0]
            #expect(cell.glyph != " ")
            #expect(cell.style.background == .default)
            guard case .rgb(let r, let g, let b) = cell.style.foreground else {
                Issue.record("expected an RGB foreground, got \(cell.style.foreground)"); continue
            }
            #expect(r == 255 && g == 0 && b == 0)
        }
    }
}

@Suite struct ColorDepthTests {
    let photo = bitmap(width: 48, height: 48) { x, y in
        RGBA(r: UInt8(x * 5), g: UInt8(y * 5), b: UInt8((x + y) * 2))
    }

    func colors(_ buffer: CellBuffer) -> [CellColor] {
        buffer.cells.flatMap { [$0.style.foreground, $0.style.background] }
    }

    @Test func eachDepthUsesOnlyItsColours() {
        for mode in RenderMode.allCases {
            for depth in ColorDepth.allCases {
                let cells = TextArtRenderer.render(photo, columns: 12, rows: 6,
                                                   options: TextArtOptions(mode: mode, color: depth))
                for color in colors(cells) {
                    switch (depth, color) {
                    case (.none, .default), (.truecolor, .rgb), (.truecolor, .default): break
                    case (.ansi16, .palette(let n)) where n < 16: break
                    case (.ansi16, .default), (.palette256, .default): break
                    case (.palette256, .palette(let n)) where n >= 16: break
                    default: Issue.record("\(mode) \(depth) produced \(color)")
                    }
                }
            }
        }
    }

    @Test func pureColoursMapToTheirPaletteEntries() {
        let picture = Bitmap(width: 2, height: 2, fill: red)
        let c256 = TextArtRenderer.render(picture, columns: 1, rows: 1,
                                          options: TextArtOptions(mode: .blocks, color: .palette256))[0, 0]
        #expect(c256.style.background == .palette(196))
        let c16 = TextArtRenderer.render(picture, columns: 1, rows: 1,
                                         options: TextArtOptions(mode: .blocks, color: .ansi16))[0, 0]
        #expect(c16.style.background == .palette(9))
    }

    @Test func ditheringChangesOnlyPaletteDepths() {
        for mode in RenderMode.allCases {
            for depth in ColorDepth.allCases {
                let plain = TextArtRenderer.render(photo, columns: 12, rows: 6,
                                                   options: TextArtOptions(mode: mode, color: depth, dither: .none))
                for dither in [Dither.ordered, .fs] {
                    let options = TextArtOptions(mode: mode, color: depth, dither: dither)
                    let dithered = TextArtRenderer.render(photo, columns: 12, rows: 6, options: options)
                    if depth == .truecolor {
                        #expect(dithered == plain, "\(mode) \(depth) \(dither)")
                    } else {
                        #expect(dithered != plain, "\(mode) \(depth) \(dither)")
                    }
                }
            }
        }
    }

    @Test func renderingIsDeterministic() {
        let a = TextArtRenderer.render(photo, columns: 10, rows: 5, options: .default)
        let b = TextArtRenderer.render(photo, columns: 10, rows: 5, options: .default)
        #expect(a == b)
    }
}

@Suite struct CompositingAndResamplingTests {
    @Test func transparencyCompositesOverTheBackground() {
        let clear = Bitmap(width: 4, height: 4, fill: RGBA(r: 255, g: 0, b: 0, a: 0))
        let blue = RGBA(r: 0, g: 0, b: 255)
        let cell = TextArtRenderer.render(clear, columns: 1, rows: 1,
                                          options: TextArtOptions(mode: .blocks, color: .truecolor, background: blue))
        #expect(cell[0, 0] == Cell(" ", foreground: .rgb(0, 0, 255), background: .rgb(0, 0, 255)))
    }

    @Test func halfTransparentRedMixesInLinearLight() {
        let half = Bitmap(width: 4, height: 4, fill: RGBA(r: 255, g: 0, b: 0, a: 128))
        let cell = TextArtRenderer.render(half, columns: 1, rows: 1,
                                          options: TextArtOptions(mode: .blocks, color: .truecolor))[0, 0]
        // 50% of linear red is sRGB 188, not 128.
        #expect(cell.style.background == .rgb(188, 0, 0))
    }

    @Test func shrinkingAveragesInLinearLight() {
        let stripes = bitmap(width: 2, height: 2) { x, _ in x == 0 ? white : black }
        let image = LinearImage(resampling: stripes, width: 1, height: 1, background: black)
        #expect(abs(image.r[0] - 0.5) < 0.001)
        #expect(ColorSpace.byte(linear: image.r[0]) == 188)
    }

    @Test func enlargingATinyImageKeepsItsColours() {
        let cells = TextArtRenderer.render(Bitmap(width: 1, height: 1, fill: red), columns: 5, rows: 3,
                                           options: TextArtOptions(mode: .sextants, color: .truecolor))
        #expect(cells.cells.allSatisfy { $0.style.background == .rgb(255, 0, 0) })
    }

    @Test func emptyInputsGiveEmptyOrBlankGrids() {
        #expect(TextArtRenderer.render(Bitmap(width: 4, height: 4, fill: red), columns: 0, rows: 3).width == 0)
        let blank = TextArtRenderer.render(Bitmap(width: 0, height: 0, pixels: []), columns: 2, rows: 1,
                                           options: TextArtOptions(mode: .blocks, color: .truecolor))
        #expect(blank.cells.allSatisfy { $0.glyph == " " && $0.style.background == .rgb(0, 0, 0) })
    }
}

@Suite struct GeometryTests {
    /// (image width, height, box columns, rows, expected columns, rows), from fitgrid.py.
    static let fitgridCases: [(Int, Int, Int, Int, Int, Int)] = [
        (451, 300, 40, 20, 40, 13), (451, 300, 80, 40, 80, 27), (512, 512, 40, 20, 40, 20),
        (1000, 872, 80, 40, 80, 35), (10, 10, 40, 20, 40, 20), (1920, 1080, 40, 20, 40, 11),
        (300, 1000, 40, 20, 12, 20), (600, 400, 40, 20, 40, 13), (400, 328, 80, 40, 80, 33),
        (41, 20, 40, 20, 40, 10), (1, 1000, 80, 40, 1, 40), (1000, 1, 80, 40, 80, 1),
        (40, 5, 40, 20, 40, 2), (40, 7, 40, 20, 40, 4),  // halves round to even, as Python's round does
    ]

    @Test func fitMatchesFitgrid() {
        for (w, h, c, r, ec, er) in Self.fitgridCases {
            let fit = TextArtRenderer.fit(imageWidth: w, imageHeight: h, maxColumns: c, maxRows: r, cellAspect: 0.5)
            #expect(fit.columns == ec && fit.rows == er, "\(w)x\(h) in \(c)x\(r)")
        }
    }

    @Test func fitUsesTheCellAspect() {
        let square = TextArtRenderer.fit(imageWidth: 100, imageHeight: 100, maxColumns: 40, maxRows: 40, cellAspect: 1)
        #expect(square.columns == 40 && square.rows == 40)
    }

    @Test func fitOfAnEmptyImageIsEmpty() {
        let fit = TextArtRenderer.fit(imageWidth: 0, imageHeight: 10, maxColumns: 40, maxRows: 20, cellAspect: 0.5)
        #expect(fit.columns == 0 && fit.rows == 0)
    }

    @Test func sourcePixelSizeIsTwiceEachModesPixelGrid() {
        let cellPixels: [RenderMode: (Int, Int)] = [
            .ascii: (1, 1), .shapes: (2, 4), .blocks: (1, 2), .quadrants: (2, 2), .sextants: (2, 6), .braille: (2, 4),
        ]
        for (mode, size) in cellPixels {
            #expect(TextArtRenderer.cellPixels(mode) == size, "\(mode)")
            let s = TextArtRenderer.sourcePixelSize(columns: 40, rows: 20, mode: mode)
            #expect(s.width == 40 * size.0 * 2 && s.height == 20 * size.1 * 2, "\(mode)")
        }
    }

    @Test func bayerMatrixHoldsEveryLevelOnce() {
        let levels = Dithering.bayer8.map { Int($0 * 64 - 0.5) }
        #expect(Set(levels) == Set(0..<64))
        #expect(levels.prefix(8) == [0, 32, 8, 40, 2, 34, 10, 42])
    }
}
