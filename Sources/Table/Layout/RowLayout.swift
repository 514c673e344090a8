import Cells
import Items

/// The geometry of rows for one screen width: where the thumbnail and the text go, and how tall each row is.
///
/// Heights are computed only for rows that are asked about (those near the viewport) and cached per width, so the
/// cost of a frame does not depend on how many rows are loaded.
public struct RowLayout: Sendable, Equatable {
    /// The width of the list area in columns.
    public let width: Int
    /// The thumbnail block, or nil when the screen is too narrow to show one (compact rows).
    public let thumbnail: CellSize?
    public static let maxTitleLines = 3
    /// The columns a row keeps for its text beside a thumbnail: a narrower screen shows no thumbnail.
    public static let textRoom = 20

    public init(width: Int, thumbnail: CellSize) {
        self.width = width
        // A thumbnail needs room for itself and a useful amount of text beside it.
        self.thumbnail = width >= thumbnail.columns + Self.textRoom ? thumbnail : nil
    }

    /// The first column of the text beside the thumbnail.
    public var textColumn: Int { thumbnail.map { 2 + $0.columns + 1 } ?? 2 }
    public var textWidth: Int { max(1, width - textColumn - 1) }

    /// The lines of text a row shows, wrapped for this width.
    public func textLines(for item: Item) -> RowText {
        let titleLines = TextWrap.lines(item.title.isEmpty ? "(untitled)" : item.title, width: textWidth,
                                        maxLines: thumbnail == nil ? 2 : Self.maxTitleLines)
        let subtitle = item.subtitle.isEmpty ? nil : TextWrap.truncate(item.subtitle, width: textWidth)
        let attribution = item.attribution.flatMap { $0.isEmpty ? nil : TextWrap.truncate($0, width: textWidth) }
        return RowText(title: titleLines, subtitle: subtitle, attribution: thumbnail == nil ? nil : attribution)
    }

    /// The height of an item's row, including the blank line that separates it from the next.
    public func height(for item: Item) -> Int {
        let text = textLines(for: item)
        guard let thumbnail else { return text.lineCount }
        return max(thumbnail.rows, text.lineCount) + 1
    }

    /// The height of the row at the end of the list (loading more, an error, the end).
    public var statusRowHeight: Int { thumbnail == nil ? 1 : 2 }
}

/// The wrapped text of one row.
public struct RowText: Sendable, Equatable {
    public var title: [String]
    public var subtitle: String?
    public var attribution: String?
    public var lineCount: Int { title.count + (subtitle == nil ? 0 : 1) + (attribution == nil ? 0 : 1) }
}
