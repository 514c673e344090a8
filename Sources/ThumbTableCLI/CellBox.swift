import ArgumentParser

/// A box of terminal cells, COLSxROWS, as `render --size` and `--thumb-size` take it: the one parser for both.
struct CellBox: Equatable, Sendable, CustomStringConvertible {
    var columns: Int
    var rows: Int

    var description: String { "\(columns)x\(rows)" }

    /// Parses `text` given as `option`, at least 1x1 and at most `ceiling`; the messages name the option, the value
    /// and what to give instead.
    init(parsing text: String, option: String, ceiling: CellBox) throws(ValidationError) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        let numbers = parts.map(Self.wholeNumber)
        guard parts.count == 2, let columns = numbers[0], let rows = numbers[1] else {
            throw ValidationError("\(option) must look like 40x20 (columns x rows), got '\(text)'")
        }
        guard columns.isPositive, rows.isPositive else {
            throw ValidationError("\(option) \(text): columns and rows must both be at least 1")
        }
        guard let c = columns.value, let r = rows.value, c <= ceiling.columns, r <= ceiling.rows else {
            throw ValidationError("\(option) \(text) is larger than \(ceiling), the largest it takes: give at most "
                                  + "\(ceiling.columns) columns and \(ceiling.rows) rows")
        }
        self.init(columns: c, rows: r)
    }

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// A plain decimal number, optionally negative: its value when it fits an `Int` (nil: too many digits), and its
    /// sign. Anything else (`+3`, `3.5`, ` 3`, empty) is not a size.
    private static func wholeNumber(_ text: Substring) -> (value: Int?, isPositive: Bool)? {
        let negative = text.hasPrefix("-")
        let digits = negative ? text.dropFirst() : text
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let value = Int(text)
        return (value, !negative && digits.contains { $0 != "0" })
    }
}
