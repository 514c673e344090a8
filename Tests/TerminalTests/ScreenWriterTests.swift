import Cells
@testable import Terminal
import Testing

/// The screen writer sends curses only the cells that changed, and starts the colour pairs again when they run out.
@MainActor
@Suite struct ScreenWriterTests {
    /// A curses surface that records what it was asked, and keeps a grid of what was put where.
    final class RecordingSurface: CursesSurface {
        enum Call: Equatable {
            case erase, resetPairs, refresh
            case put(Character, pair: Int32, x: Int, y: Int)
        }
        var calls: [Call] = []
        var defined: [Int32] = []

        func erase() { calls.append(.erase) }
        func put(_ glyph: Character, attributes: CellAttributes, pair: Int32, x: Int, y: Int) {
            calls.append(.put(glyph, pair: pair, x: x, y: y))
        }
        func definePair(_ pair: Int32, foreground: Int32, background: Int32) -> Bool {
            defined.append(pair)
            return true
        }
        func resetPairs() { calls.append(.resetPairs) }
        func refresh() { calls.append(.refresh) }

        var puts: [Call] { calls.filter { if case .put = $0 { true } else { false } } }
        func take() -> [Call] {
            defer { calls.removeAll() }
            return calls
        }
    }

    let surface = RecordingSurface()

    func writer(colors: Int = 256, pairLimit: Int32 = 1_000) -> ScreenWriter {
        ScreenWriter(surface: surface, pairs: ColorPairs(colorCount: colors, entryIsDirect: false, indexedBelow: 256,
                                                         limit: pairLimit))
    }

    func frame(_ lines: [String], width: Int = 4) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: lines.count)
        for (y, line) in lines.enumerated() {
            for (x, glyph) in line.enumerated() { buffer[x, y] = Cell(glyph) }
        }
        return buffer
    }

    static let size = Terminal.Size(columns: 4, rows: 2)

    @Test func theFirstFrameIsWrittenWholeThenOnlyWhatChanged() {
        let writer = writer()
        writer.draw(frame(["abcd", "efgh"]), size: Self.size)
        let first = surface.take()
        #expect(first.first == .erase && first.last == .refresh)
        #expect(first.filter { if case .put = $0 { true } else { false } }.count == 8)

        writer.draw(frame(["abXd", "efgh"]), size: Self.size)
        // The changed cell, and the one before it (whose right neighbour changed: it may be a wide glyph's half).
        #expect(surface.take() == [.put("b", pair: 0, x: 1, y: 0), .put("X", pair: 0, x: 2, y: 0), .refresh])

        writer.draw(frame(["abXd", "efgh"]), size: Self.size)
        #expect(surface.take() == [.refresh], "an unchanged frame writes no cell")
    }

    @Test func forgettingOrAnotherSizeWritesEverythingAgain() {
        let writer = writer()
        writer.draw(frame(["abcd", "efgh"]), size: Self.size)
        writer.forget()
        _ = surface.take()
        writer.draw(frame(["abcd", "efgh"]), size: Self.size)
        #expect(surface.puts.count == 8)
        _ = surface.take()
        writer.draw(frame(["abc", "efg"], width: 3), size: Self.size)
        #expect(surface.calls.first == .erase && surface.puts.count == 6)
    }

    @Test func onlyWhatFitsTheScreenIsWritten() {
        let writer = writer()
        writer.draw(frame(["abcd", "efgh", "ijkl"]), size: Terminal.Size(columns: 2, rows: 2))
        #expect(surface.puts == [.put("a", pair: 0, x: 0, y: 0), .put("b", pair: 0, x: 1, y: 0),
                                 .put("e", pair: 0, x: 0, y: 1), .put("f", pair: 0, x: 1, y: 1)])
    }

    @Test func aWideGlyphWithoutRoomIsASpaceAndContinuationsAreSkipped() {
        let writer = writer()
        var buffer = frame(["ab  "])
        buffer[0, 0] = Cell("界")
        buffer[1, 0] = .continuation
        buffer[3, 0] = Cell("界")
        writer.draw(buffer, size: Terminal.Size(columns: 4, rows: 1))
        // The blank at x 2 is left as `erase()` made it; the glyph at x 3 is written as a space.
        #expect(surface.puts == [.put("界", pair: 0, x: 0, y: 0), .put(" ", pair: 0, x: 3, y: 0)])
    }

    @Test func aFrameWrittenWholeLeavesPlainBlanksToTheErase() {
        let writer = writer()
        var buffer = frame(["a  b", "    "])
        buffer[1, 1] = Cell(" ", style: CellStyle(background: .palette(4)))
        buffer[2, 1] = Cell(" ", style: CellStyle(attributes: .reverse))
        writer.draw(buffer, size: Self.size)
        // Only the letters and the blanks with a colour or an attribute.
        #expect(surface.take() == [.erase, .put("a", pair: 0, x: 0, y: 0), .put("b", pair: 0, x: 3, y: 0),
                                   .put(" ", pair: 1, x: 1, y: 1), .put(" ", pair: 0, x: 2, y: 1), .refresh])

        // Against a frame on screen a blank is written where something else was (and before it, as ever).
        writer.draw(frame(["    ", "    "]), size: Self.size)
        #expect(surface.take().map { if case .put(_, _, let x, let y) = $0 { "\(x),\(y)" } else { "refresh" } }
            == ["0,0", "2,0", "3,0", "0,1", "1,1", "2,1", "refresh"])
    }

    @Test func runningOutOfPairsResetsThemAndWritesTheFrameAgain() {
        let writer = writer(pairLimit: 3)
        var buffer = frame(["abcd"])
        for x in 0..<4 { buffer[x, 0].style = CellStyle(foreground: .palette(UInt8(x + 1))) }
        writer.draw(buffer, size: Terminal.Size(columns: 4, rows: 1))
        // Two pairs fit (1 and 2); the third cell ran out: reset, erase, and the frame again, whose last cells take
        // the default colours (one frame with more colours than the table holds).
        let calls = surface.take()
        #expect(calls.contains(.resetPairs))
        #expect(Array(calls.suffix(5)) == [.put("a", pair: 1, x: 0, y: 0), .put("b", pair: 2, x: 1, y: 0),
                                           .put("c", pair: 0, x: 2, y: 0), .put("d", pair: 0, x: 3, y: 0), .refresh])
        #expect(surface.defined == [1, 2, 1, 2])

        // New glyphs in the same colours: the pairs kept are 1 and 2 only, so c and d run out again.
        var next = frame(["wxyz"])
        for x in 0..<4 { next[x, 0].style = CellStyle(foreground: .palette(UInt8(x + 1))) }
        writer.draw(next, size: Terminal.Size(columns: 4, rows: 1))
        #expect(surface.calls.contains(.resetPairs), "cells c and d still need pairs: the table starts again")
    }

    @Test func withoutColoursEveryCellIsPairZero() {
        let writer = writer(colors: 0, pairLimit: 0)
        var buffer = frame(["ab"], width: 2)
        buffer[0, 0].style = CellStyle(foreground: .palette(3), background: .rgb(1, 2, 3))
        writer.draw(buffer, size: Self.size)
        #expect(surface.puts == [.put("a", pair: 0, x: 0, y: 0), .put("b", pair: 0, x: 1, y: 0)])
        #expect(surface.defined.isEmpty)
    }
}
