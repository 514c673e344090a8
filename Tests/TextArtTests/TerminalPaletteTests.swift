@testable import TextArt
import Testing

/// The 16-colour text-art path picks its colours in OKLab among the ANSI entries: a grey must stay one of the four
/// greys there too (TERM=xterm turned grey photos yellow), and a clear hue its own entry.
@Suite struct TerminalPaletteTests {
    @Test func everyGreyBecomesOneOfTheFourGreys() {
        let palette = TerminalPalette.ansi16
        for v in 0...255 {
            let level = ColorSpace.linearOfByte[v]
            let entry = palette.nearest(linear: SIMD3(repeating: level))
            #expect([0, 7, 8, 15].contains(palette.indices[entry]), "grey \(v) became \(palette.indices[entry])")
        }
    }

    @Test func clearHuesKeepTheirEntry() {
        let palette = TerminalPalette.ansi16
        let lut = ColorSpace.linearOfByte
        for (rgb, entries) in [((200, 30, 30), [1, 9]), ((40, 180, 40), [2, 10]), ((40, 40, 200), [4, 12]),
                               ((200, 190, 40), [3, 11])] as [((Int, Int, Int), [UInt8])] {
            let entry = palette.nearest(linear: SIMD3(lut[rgb.0], lut[rgb.1], lut[rgb.2]))
            #expect(entries.contains(palette.indices[entry]), "\(rgb) became \(palette.indices[entry])")
        }
    }
}
