import Cells
import Testing

/// The reduction of colours to 8- and 16-colour terminals: greys stay grey (a grey photo on TERM=xterm turned
/// yellow), colours keep their hue; and 24-bit colours as direct-colour entries' colour numbers.
@Suite struct XtermPaletteTests {
    static let greys8: Set<UInt8> = [0, 7]
    static let greys16: Set<UInt8> = [0, 7, 8, 15]

    @Test(arguments: [8, 16])
    func everyGreyBecomesAGrey(colors: Int) {
        let allowed = colors == 8 ? Self.greys8 : Self.greys16
        for v in 0...255 {
            let c = UInt8(v)
            let index = XtermPalette.nearest(r: c, g: c, b: c, colors: colors)
            #expect(allowed.contains(index), "grey \(v) became \(index) with \(colors) colours")
        }
    }

    @Test func greysFollowTheirLightness() {
        #expect(XtermPalette.nearest(r: 10, g: 10, b: 10, colors: 8) == 0)
        #expect(XtermPalette.nearest(r: 200, g: 200, b: 200, colors: 8) == 7)
        #expect(XtermPalette.nearest(r: 128, g: 128, b: 128, colors: 16) == 8)
        #expect(XtermPalette.nearest(r: 250, g: 250, b: 250, colors: 16) == 15)
        // A warm or cool grey of little saturation is still a grey.
        #expect(Self.greys8.contains(XtermPalette.nearest(r: 140, g: 128, b: 118, colors: 8)))
        #expect(Self.greys16.contains(XtermPalette.nearest(r: 118, g: 128, b: 140, colors: 16)))
    }

    @Test func theGreysOfThe256PaletteReduceToGreys() {
        for index in UInt8(232)...UInt8(255) {
            #expect(Self.greys8.contains(XtermPalette.reduce(paletteIndex: index, to: 8)), "\(index)")
            #expect(Self.greys16.contains(XtermPalette.reduce(paletteIndex: index, to: 16)), "\(index)")
        }
        #expect(XtermPalette.reduce(paletteIndex: 8, to: 8) != 3, "bright black is not yellow")
    }

    /// Each hue, saturated and mid-light, maps to its own ANSI entry (or the bright one with 16 colours).
    @Test(arguments: [
        (UInt8(200), UInt8(30), UInt8(30), UInt8(1)), (200, 190, 40, 3), (40, 180, 40, 2), (40, 180, 190, 6),
        (40, 40, 200, 4), (180, 40, 190, 5), (255, 140, 0, 3), (139, 69, 19, 1), (255, 20, 147, 5),
        (120, 0, 0, 1), (0, 0, 140, 4),
    ])
    func coloursKeepTheirHue(r: UInt8, g: UInt8, b: UInt8, entry: UInt8) {
        #expect(XtermPalette.nearest(r: r, g: g, b: b, colors: 8) == entry)
        let sixteen = XtermPalette.nearest(r: r, g: g, b: b, colors: 16)
        #expect(sixteen == entry || sixteen == entry + 8, "(\(r), \(g), \(b)) became \(sixteen)")
    }

    @Test func brightColoursTakeTheBrightEntriesWithSixteen() {
        #expect(XtermPalette.nearest(r: 255, g: 0, b: 0, colors: 16) == 9)
        #expect(XtermPalette.nearest(r: 205, g: 0, b: 0, colors: 16) == 1)
        #expect(XtermPalette.nearest(r: 90, g: 90, b: 255, colors: 16) == 12)
    }

    @Test func theAnsiColoursMapToThemselves() {
        for index in UInt8(0)...UInt8(15) {
            let c = XtermPalette.rgb(index)
            #expect(XtermPalette.nearest(r: c.r, g: c.g, b: c.b, colors: 16) == index, "\(index)")
        }
    }

    /// xterm-direct sends numbers below 8 as ANSI colours, xterm-direct256 below 256 as palette indexes: a black or
    /// dark blue pixel must not become one.
    @Test func directNumbersStayOutOfThePaletteIndexes() {
        #expect(XtermPalette.directColorNumber(r: 0, g: 0, b: 0, indexedBelow: 8) == 0x000100)
        #expect(XtermPalette.directColorNumber(r: 0, g: 0, b: 5, indexedBelow: 8) == 0x000105)
        #expect(XtermPalette.directColorNumber(r: 0, g: 0, b: 9, indexedBelow: 8) == 9)
        #expect(XtermPalette.directColorNumber(r: 0, g: 0, b: 200, indexedBelow: 256) == 0x0001C8)
        #expect(XtermPalette.directColorNumber(r: 0, g: 1, b: 0, indexedBelow: 256) == 0x000100)
        #expect(XtermPalette.directColorNumber(r: 12, g: 34, b: 56, indexedBelow: 256) == 0x0C2238)
        for b in 0...255 {
            #expect(XtermPalette.directColorNumber(r: 0, g: 0, b: UInt8(b), indexedBelow: 256) >= 256)
        }
    }
}
