import Cells
@testable import Terminal
import Testing

/// Colour pairs are handed out once per fg/bg combination, run out at the entry's limit, and start again at 1.
@Suite struct ColorPairsTests {
    /// The pairs curses was asked to define: number, foreground, background.
    final class Definitions {
        var made: [(pair: Int32, foreground: Int32, background: Int32)] = []
        var refuse = false
        func define(_ pair: Int32, _ foreground: Int32, _ background: Int32) -> Bool {
            made.append((pair, foreground, background))
            return !refuse
        }
    }

    func style(_ foreground: UInt8, _ background: UInt8 = 0) -> CellStyle {
        CellStyle(foreground: .palette(foreground), background: .palette(background))
    }

    @Test func eachCombinationGetsOnePairAndKeepsIt() {
        var pairs = ColorPairs(colorCount: 256, entryIsDirect: false, indexedBelow: 256, limit: 100)
        let curses = Definitions()
        #expect(pairs.pair(for: style(1), define: curses.define) == 1)
        #expect(pairs.pair(for: style(2), define: curses.define) == 2)
        // The same colours with other attributes: the same pair, nothing defined.
        var bold = style(1)
        bold.attributes = .bold
        #expect(pairs.pair(for: bold, define: curses.define) == 1)
        #expect(curses.made.map(\.pair) == [1, 2])
        #expect(curses.made[1].foreground == 2 && curses.made[1].background == 0)
    }

    @Test func defaultColoursArePairZero() {
        var pairs = ColorPairs(colorCount: 256, entryIsDirect: false, indexedBelow: 256, limit: 100)
        let curses = Definitions()
        #expect(pairs.pair(for: .plain, define: curses.define) == 0)
        #expect(pairs.pair(for: CellStyle(foreground: .default, background: .palette(4)), define: curses.define) == 1)
        #expect(curses.made.first?.foreground == -1)
    }

    @Test func noColourNeverDefinesAPair() {
        // NO_COLOR, --color none: curses' colours are never started.
        var pairs = ColorPairs(colorCount: 0, entryIsDirect: false, indexedBelow: 256, limit: 0)
        let curses = Definitions()
        for n in 0..<10 { #expect(pairs.pair(for: style(UInt8(n), 7), define: curses.define) == 0) }
        #expect(curses.made.isEmpty)
    }

    @Test func runningOutSaysSoUntilResetThenNumbersStartAgain() {
        var pairs = ColorPairs(colorCount: 256, entryIsDirect: false, indexedBelow: 256, limit: 4)
        let curses = Definitions()
        #expect((1...3).map { pairs.pair(for: style(UInt8($0)), define: curses.define) } == [1, 2, 3])
        #expect(pairs.pair(for: style(9), define: curses.define) == nil)
        pairs.reset()
        #expect(pairs.count == 0)
        #expect(pairs.pair(for: style(9), define: curses.define) == 1)
    }

    @Test func whileOverflowingAFullTableGivesTheDefaultColours() {
        var pairs = ColorPairs(colorCount: 8, entryIsDirect: false, indexedBelow: 8, limit: 2)
        let curses = Definitions()
        pairs.overflowing = true
        #expect(pairs.pair(for: style(1), define: curses.define) == 1)
        #expect(pairs.pair(for: style(2), define: curses.define) == 0)
    }

    /// The pair found last is kept aside for the next cell (most often of the same colours), and forgotten with the
    /// rest at a reset: a number handed out again must not mean the colours it had before.
    @Test func thePairFoundLastIsForgottenAtAReset() {
        var pairs = ColorPairs(colorCount: 256, entryIsDirect: false, indexedBelow: 256, limit: 100)
        let curses = Definitions()
        #expect(pairs.pair(for: style(1), define: curses.define) == 1)
        #expect(pairs.pair(for: style(1), define: curses.define) == 1)
        pairs.reset()
        #expect(pairs.pair(for: style(2), define: curses.define) == 1)
        #expect(pairs.pair(for: style(1), define: curses.define) == 2)
        #expect(pairs.pair(for: style(2), define: curses.define) == 1)
        #expect(curses.made.map(\.pair) == [1, 1, 2])
        #expect(curses.made.map(\.foreground) == [1, 2, 1])
    }

    @Test func aPairCursesRefusesIsNotKept() {
        var pairs = ColorPairs(colorCount: 256, entryIsDirect: false, indexedBelow: 256, limit: 100)
        let curses = Definitions()
        curses.refuse = true
        #expect(pairs.pair(for: style(1), define: curses.define) == nil)
        #expect(pairs.count == 0)
    }

    @Test func coloursAreReducedToTheDepthAndSentAsTheEntryTakesThem() {
        let palette = ColorPairs(colorCount: 16, entryIsDirect: false, indexedBelow: 16, limit: 100)
        #expect(palette.colorNumber(.default) == -1)
        #expect(palette.colorNumber(.palette(9)) == 9)
        #expect(palette.colorNumber(.palette(196)) < 16)
        #expect(palette.colorNumber(.rgb(255, 0, 0)) < 16)
        let direct = ColorPairs(colorCount: ColorSetup.direct, entryIsDirect: true, indexedBelow: 256, limit: 100)
        #expect(direct.colorNumber(.palette(200)) == 200)
        #expect(direct.colorNumber(.rgb(1, 2, 3)) == XtermPalette.directColorNumber(r: 1, g: 2, b: 3, indexedBelow: 256))
        // A direct entry that sends only 8 palette indexes: palette colour 200 goes as its RGB value.
        let direct8 = ColorPairs(colorCount: ColorSetup.direct, entryIsDirect: true, indexedBelow: 8, limit: 100)
        let c = XtermPalette.rgb(200)
        #expect(direct8.colorNumber(.palette(200))
                == XtermPalette.directColorNumber(r: c.r, g: c.g, b: c.b, indexedBelow: 8))
    }
}
