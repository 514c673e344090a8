import FoundationEssentials
import Glibc

/// HTTP's dates (RFC 9110 §5.6.7): the IMF-fixdate servers send ("Sun, 06 Nov 1994 08:49:37 GMT"), and the two
/// obsolete forms a recipient must still accept, RFC 850 ("Sunday, 06-Nov-94 08:49:37 GMT") and C's asctime
/// ("Sun Nov  6 08:49:37 1994"). Read by hand: DateFormatter needs all of Foundation and ICU's data.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// The date `text` names, or nil when it is none of the three forms or names no real time.
    /// Text over 64 characters, or with a control or non-ASCII character, is none (a header is untrusted; no date is
    /// that long).
    public static func parse(_ text: String) -> Date? {
        guard text.utf8.count <= 64, text.utf8.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 < 0x7F) }) else {
            return nil
        }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let day: Int?, month: Int?, year: Int?, clock: Substring
        if words.count == 6, words[0].hasSuffix(","), words[5] == "GMT" {
            // IMF-fixdate: weekday, day month year time GMT.
            (day, month, year, clock) = (Int(words[1]), monthNumber(words[2]), Int(words[3]), words[4])
        } else if words.count == 4, words[0].hasSuffix(","), words[3] == "GMT" {
            // RFC 850: weekday, dd-mon-yy time GMT; a two-digit year is taken as the nearest one in a century
            // starting 50 years before now, as RFC 9110 asks.
            let parts = words[1].split(separator: "-")
            guard parts.count == 3, let short = Int(parts[2]), parts[2].count == 2 else { return nil }
            (day, month, clock) = (Int(parts[0]), monthNumber(parts[1]), words[2])
            year = nearestYear(endingIn: short)
        } else if words.count == 5 {
            // asctime: weekday month day time year.
            (day, month, year, clock) = (Int(words[2]), monthNumber(words[1]), Int(words[4]), words[3])
        } else {
            return nil
        }
        let time = clock.split(separator: ":").map { Int($0) }
        guard let day, let month, let year, time.count == 3, let hour = time[0], let minute = time[1],
              let second = time[2], (1...31).contains(day), (1900...9999).contains(year), (0...23).contains(hour),
              (0...59).contains(minute), (0...60).contains(second) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        // timegm normalises 31 February into March: such a date names no real day.
        guard parts.tm_mday == Int32(day), parts.tm_mon == Int32(month - 1) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// `date` as an IMF-fixdate, the form HTTP senders use.
    public static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let name = months[Int(parts.tm_mon)], month = name.prefix(1).uppercased() + name.dropFirst()
        return "\(weekdays[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(month) "
            + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    private static func monthNumber(_ name: some StringProtocol) -> Int? {
        months.firstIndex(of: name.lowercased()).map { $0 + 1 }
    }

    private static func nearestYear(endingIn short: Int) -> Int {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        let thisYear = Int(parts.tm_year) + 1900
        var year = thisYear - thisYear % 100 + short
        if year > thisYear + 50 { year -= 100 }
        return year
    }
}
