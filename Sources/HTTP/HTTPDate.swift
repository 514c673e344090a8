import Foundation

/// Dates in HTTP headers (`Date`, `Expires`, `Last-Modified`, `Retry-After`): read in the three forms RFC 9110
/// §5.6.7 says a recipient must accept.
public enum HTTPDate {
    /// The date in `text`: IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), RFC 850 ("Sunday, 06-Nov-94 08:49:37
    /// GMT") or asctime ("Sun Nov  6 08:49:37 1994"); nil for anything else, and for text over 64 characters (a
    /// header is untrusted; no date is that long).
    public static func parse(_ text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.utf8.count <= 64, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            return nil
        }
        let formatter = Self.formatter()
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        return formatter
    }
}
