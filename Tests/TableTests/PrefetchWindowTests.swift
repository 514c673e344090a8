import Testing

@testable import Table

/// Which rows a prefetch warms, by the scroll's pace and the loader's latency: rows ahead only when their picture
/// would land with `PrefetchWindow.dwell` left on screen, rows behind only at rest, rows under way kept while still
/// ahead.
@Suite struct PrefetchWindowTests {
    /// Five rows on screen, 100..<105, of 1,000.
    func window(speed: Double, latency: Duration? = .milliseconds(150), up: Bool = false,
                visible: Range<Int> = 100..<105) -> PrefetchWindow {
        PrefetchWindow(visible: visible, rowCount: 1000, movingUp: up, rowsPerSecond: speed, latency: latency)
    }

    @Test func atRestTheScreenThenTheNextScreenThenThePreviousOne() {
        #expect(window(speed: 0).rows() == Array(100..<105) + Array(105..<110) + Array((95..<100).reversed()))
        #expect(window(speed: 0, up: true).rows() == Array(100..<105) + Array((95..<100).reversed()) + Array(105..<110))
    }

    @Test func oneKeyPressWarmsTheNextScreenAndNothingBehind() {
        // One PgDn: 5 rows in the 300 ms window.
        #expect(ScrollPace.window == .milliseconds(300))
        let speed = 5 / 0.3
        #expect(window(speed: speed, latency: nil).rows() == Array(100..<110))
        // The scroll travels most of a row while a 50 ms fetch lands: one row more.
        #expect(window(speed: speed, latency: .milliseconds(50)).rows() == Array(100..<111))
    }

    @Test func aHeldPageDownWarmsNothing() {
        // 30 screens a second: a row is on screen for 33 ms, less than the dwell, however fast the network.
        for latency: Duration? in [nil, .milliseconds(1), .milliseconds(150), .seconds(2)] {
            #expect(window(speed: 150, latency: latency).rows() == Array(100..<105))
        }
    }

    @Test func aReadablePaceWarmsAsFarAheadAsTheScrollTravelsInOneFetch() {
        // 30 rows a second, fetches of 150 ms: the scroll travels 4.5 rows while one lands. Rows 0-2 ahead would land
        // with under 100 ms left on screen; rows 3 on do, out to a screen plus the 5 rows travelled.
        let rows = window(speed: 30).rows()
        #expect(rows == Array(100..<105) + Array(108..<115))
        // Up: the same, mirrored.
        #expect(window(speed: 30, up: true).rows() == Array(100..<105) + Array((90..<97).reversed()))
        // A slower network reaches further, and starts further out.
        let slow = window(speed: 30, latency: .milliseconds(400)).rows()
        #expect(slow.dropFirst(5).first! > rows.dropFirst(5).first!)
        #expect(slow.last! > rows.last!)
    }

    @Test func rowsUnderWayStayWhileAheadAndGoOnceFlownPast() {
        // Warmed when further back: 105 and 106 are now too near to start, but stay; 98 is behind, and goes.
        let rows = window(speed: 30).rows(warming: [98, 105, 106, 108])
        #expect(rows == Array(100..<105) + [105, 106] + Array(108..<115))
        // At rest nothing under way ahead is dropped, even beyond the next screen.
        #expect(window(speed: 0).rows(warming: [112, 120]).contains(120))
    }

    @Test func theEndOfTheRowsInTheScrollDirectionIsRest() {
        let top = PrefetchWindow(visible: 0..<5, rowCount: 1000, movingUp: true, rowsPerSecond: 150,
                                 latency: .milliseconds(150))
        #expect(top.rows() == Array(0..<10), "nothing above: the screen below")
        let bottom = PrefetchWindow(visible: 995..<1000, rowCount: 1000, movingUp: false, rowsPerSecond: 150,
                                    latency: .milliseconds(150))
        #expect(bottom.rows() == Array(995..<1000) + Array((990..<995).reversed()))
    }

    @Test func rowsPastTheEndAreNeverAskedFor() {
        let near = PrefetchWindow(visible: 990..<995, rowCount: 997, movingUp: false, rowsPerSecond: 30,
                                  latency: .milliseconds(150))
        #expect(near.rows().allSatisfy { $0 < 997 })
        #expect(near.rows(warming: [996, 999]).allSatisfy { $0 < 997 })
    }
}
