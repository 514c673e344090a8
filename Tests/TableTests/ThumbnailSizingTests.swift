import Cells
import Table
import Testing

/// The thumbnail size rule: sized to the screen, zoomed in steps, always leaving three rows and room for the text.
@Suite struct ThumbnailSizingTests {
    /// The list area of a screen `rows` tall: less the header, the footer and the status line.
    func size(_ sizing: ThumbnailSizing, _ columns: Int, _ rows: Int) -> (shown: CellSize, wanted: CellSize) {
        sizing.size(columns: columns, listHeight: rows - 3)
    }

    /// The screens the rule is checked on: from a tiny terminal to a huge one.
    static let screens: [(Int, Int)] = [(20, 6), (40, 10), (60, 15), (80, 24), (100, 30), (120, 40), (160, 50),
                                        (200, 60), (300, 120), (400, 200), (80, 60), (200, 24)]

    @Test func theDefaultScreenKeepsTheOldSizeAndBiggerScreensGetBiggerThumbnails() {
        let auto = ThumbnailSizing(.automatic)
        #expect(size(auto, 80, 24).shown == CellSize(columns: 12, rows: 5))
        let medium = size(auto, 120, 40).shown, large = size(auto, 200, 60).shown
        #expect(medium.rows > 5 && medium.columns > 12)
        #expect(large.rows > medium.rows && large.columns > medium.columns)
        // Photo-shaped: about 2.4 columns a row.
        for shown in [medium, large] {
            #expect(abs(Double(shown.columns) / Double(shown.rows) - ThumbnailSizing.columnsPerRow) < 0.2)
        }
    }

    @Test func theAutomaticSizeNeverShrinksAsTheScreenGrows() {
        var last = CellSize(columns: 0, rows: 0)
        for rows in 6...200 {
            let shown = ThumbnailSizing.automatic(columns: 300, listHeight: rows - 3)
            #expect(shown.rows >= last.rows && shown.columns >= last.columns, "at 300x\(rows): \(shown) after \(last)")
            last = shown
        }
        #expect(last.rows == ThumbnailSizing.largestAutomaticRows)
    }

    @Test(arguments: screens)
    func threeRowsAlwaysFitAndTheTextKeepsItsRoom(columns: Int, rows: Int) {
        var sizing = ThumbnailSizing(.automatic)
        for _ in 0..<30 {
            let shown = size(sizing, columns, rows).shown
            let listHeight = rows - 3
            if listHeight >= 6 { #expect(3 * (shown.rows + 1) <= listHeight, "\(shown) on \(columns)x\(rows)") }
            if columns > RowLayout.textRoom {
                #expect(shown.columns + RowLayout.textRoom <= columns, "\(shown) on \(columns)x\(rows)")
            }
            if sizing.zoom(by: 1, columns: columns, listHeight: listHeight) == .largest { break }
        }
    }

    @Test func zoomingInThenOutComesBackToTheSameSize() {
        var sizing = ThumbnailSizing(.automatic)
        let start = size(sizing, 200, 60).shown
        #expect(sizing.zoom(by: 1, columns: 200, listHeight: 57) == nil)
        let bigger = size(sizing, 200, 60).shown
        #expect(bigger.rows > start.rows && bigger.columns > start.columns)
        #expect(sizing.zoom(by: -1, columns: 200, listHeight: 57) == nil)
        #expect(size(sizing, 200, 60).shown == start)
        #expect(sizing.zoom(by: -3, columns: 200, listHeight: 57) == nil)
        let smaller = size(sizing, 200, 60).shown
        #expect(smaller.rows < start.rows && smaller.columns < start.columns)
        #expect(sizing.zoom(by: 1, columns: 200, listHeight: 57) == nil)
        #expect(sizing.zoom(by: 2, columns: 200, listHeight: 57) == nil)
        #expect(size(sizing, 200, 60).shown == start)
    }

    @Test func zoomStopsAtTheLargestThatLeavesThreeRowsAndAtTheSmallest() {
        var sizing = ThumbnailSizing(.automatic)
        var limit: ThumbnailSizing.Limit?
        var steps = 0
        while limit == nil && steps < 50 {
            limit = sizing.zoom(by: 1, columns: 200, listHeight: 57)
            steps += 1
        }
        #expect(limit == .largest)
        let largest = size(sizing, 200, 60).shown
        #expect(3 * (largest.rows + 1) <= 57)
        // One more step would not have fitted.
        #expect(!ThumbnailSizing.fits(ThumbnailSizing.zoomed(largest, steps: 1), columns: 200, listHeight: 57))
        #expect(sizing.zoom(by: -100, columns: 200, listHeight: 57) == .smallest)
        #expect(size(sizing, 200, 60).shown.rows == ThumbnailSizing.smallestRows)
        #expect(sizing.zoom(by: -1, columns: 200, listHeight: 57) == .smallest)
    }

    @Test func aGivenSizeStaysWhateverTheScreenUntilZoomed() {
        var sizing = ThumbnailSizing(.fixed(CellSize(columns: 20, rows: 8)))
        #expect(size(sizing, 120, 40).shown == CellSize(columns: 20, rows: 8))
        #expect(size(sizing, 200, 60).shown == CellSize(columns: 20, rows: 8))
        #expect(sizing.zoom(by: 1, columns: 200, listHeight: 57) == nil)
        #expect(size(sizing, 200, 60).shown == CellSize(columns: 25, rows: 10))
    }

    @Test func aGivenSizeThatCannotFitIsShrunkToItsShapeAndTheFirstStepSmallerShows() {
        var sizing = ThumbnailSizing(.fixed(CellSize(columns: 200, rows: 100)))
        let (shown, wanted) = size(sizing, 80, 24)
        #expect(wanted == CellSize(columns: 200, rows: 100))
        #expect(shown.rows <= 6 && shown.columns <= 60 && shown.columns == 2 * shown.rows)
        #expect(ThumbnailSizing.clampNote(wanted: wanted, shown: shown, columns: 80, rows: 24) != nil)
        // Zooming works from what is shown, not from the size that never fitted.
        #expect(sizing.zoom(by: -1, columns: 80, listHeight: 21) == nil)
        let smaller = size(sizing, 80, 24)
        #expect(smaller.shown == smaller.wanted && smaller.shown.rows < shown.rows)
    }

    @Test func zoomStepsTheScreenNoLongerHoldsAreGivenBackOnTheNextZoom() {
        var sizing = ThumbnailSizing(.automatic)
        #expect(sizing.zoom(by: 1, columns: 200, listHeight: 57) == nil)
        // The terminal shrank: the zoomed size is shown as large as fits, and says so.
        let (shown, wanted) = size(sizing, 80, 20)
        #expect(shown != wanted && 3 * (shown.rows + 1) <= 17)
        // The first step smaller is a step below what was shown.
        #expect(sizing.zoom(by: -1, columns: 80, listHeight: 17) == nil)
        #expect(size(sizing, 80, 20).shown.rows < shown.rows)
    }

    @Test(arguments: screens)
    func aTinyOrOddScreenNeverGivesAnEmptySize(columns: Int, rows: Int) {
        for base in [ThumbnailSizing.Base.automatic, .fixed(CellSize(columns: 200, rows: 100)),
                     .fixed(CellSize(columns: 1, rows: 1))] {
            var sizing = ThumbnailSizing(base)
            for steps in [0, 5, -10] {
                _ = sizing.zoom(by: steps, columns: columns, listHeight: max(1, rows - 3))
                let shown = sizing.size(columns: columns, listHeight: max(1, rows - 3)).shown
                #expect(shown.rows >= 1 && shown.columns >= 1)
            }
        }
    }
}
