/// Trimming of ASCII spaces, tabs and line ends, for protocol text (HTTP headers, query strings, numbers in JSON
/// fields): what `trimmingCharacters(in: .whitespaces)` did before, without Foundation's Unicode tables.
extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    public func trimmingSpaces() -> String { trimming(while: { $0 == " " || $0 == "\t" }) }

    /// The text without leading and trailing spaces, tabs, carriage returns and line feeds.
    public func trimmingSpacesAndLineEnds() -> String {
        trimming(while: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" })
    }

    /// The text without the leading and trailing characters that `isTrimmed` accepts.
    public func trimming(while isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let last = lastIndex(where: { !isTrimmed($0) })!
        return String(self[first...last])
    }
}
