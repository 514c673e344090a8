import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Date {
    /// The date in the local time zone as "2026-11-24 22:40:05", for the detail pane: what a DateFormatter with
    /// "yyyy-MM-dd HH:mm:ss" and the POSIX locale gave, without Foundation's calendar and ICU data.
    public var localTimestamp: String {
        var seconds = time_t(timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "\(timeIntervalSince1970)" }
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
