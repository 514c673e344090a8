import Basics
import Foundation
import Testing

/// The small replacements for what FoundationEssentials lacks give what Foundation gave.
@Suite struct BasicsTests {
    @Test(arguments: [0.0, 0.04, 0.7, 1.234, 99.99, 1234.5678, -0.6, -1.07, 1e12, 123456.789])
    func fixedDecimalsMatchPrintfAwayFromTies(_ value: Double) {
        for places in 0...3 {
            #expect(value.fixed(places) == String(format: "%.\(places)f", value), "\(value) to \(places) places")
        }
    }

    @Test func fixedDecimalsRoundTiesAwayFromZero() {
        #expect(2.5.fixed(0) == "3" && (-2.5).fixed(0) == "-3" && 0.25.fixed(1) == "0.3")
        #expect((-0.01).fixed(1) == "0.0", "no negative zero")
        #expect(Double.nan.fixed(1) == "nan" && Double.infinity.fixed(1) == "inf")
    }

    @Test func trimmingTakesOnlyASCIISpacesTabsAndLineEnds() {
        #expect(" \t a b \t".trimmingSpaces() == "a b")
        #expect("\r\n a \n".trimmingSpacesAndLineEnds() == "a")
        #expect("\u{A0}a\u{A0}".trimmingSpaces() == "\u{A0}a\u{A0}", "no-break spaces are not protocol white space")
        #expect("   ".trimmingSpaces() == "" && "".trimmingSpaces() == "")
        #expect("\"quoted\"".trimming(while: { $0 == "\"" }) == "quoted")
    }

    @Test func aBackgroundThreadRunsItsBody() async {
        let ran = await withCheckedContinuation { continuation in
            #expect(BackgroundThread.start(name: "basics test") { continuation.resume(returning: true) })
        }
        #expect(ran)
    }

    @Test func localTimestampIsTheLocalCalendarTime() {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        #expect(date.localTimestamp == formatter.string(from: date))
    }

    @Test func percentDecodingMatchesFoundation() {
        for text in ["a%20b", "%E2%9C%93", "plain", "100%25", "%", "%2", "%zz", "%FF", "a%2Fb"] {
            #expect(text.percentDecoded == text.removingPercentEncoding, "\(text)")
        }
    }
}
