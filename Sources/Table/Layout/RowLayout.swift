import Cells
import Items

/// The geometry of rows for one screen width: where the thumbnail and the text go, and how tall each row is.
///
/// Two forms: the list's rows (a thumbnail sized by `ThumbnailSizing`, the title wrapped beside it, a blank line
/// under each row) and compact rows (`compact(width:lines:)`: every row `lines` high, a small thumbnail of that
/// height, one line each for the title, the subtitle and the attribution, no blank line), as `ls -l` to `ls`.
///
/// Heights are computed only for rows that are asked about (those near the viewport) and cached per width, so the
/// cost of a frame does not depend on how many rows are loaded.
public struct RowLayout: Sendable, Equatable {
    /// The width of the list area in columns.
    public let width: Int
    /// The thumbnail block, or nil when the screen is too narrow to show one.
    public let thumbnail: CellSize?
    /// In compact rows, the lines every row takes; nil in the list's rows, whose height follows their text.
    public let compactLines: Int?
    public static let maxTitleLines = 3
    /// The columns a row keeps for its text beside a thumbnail: a narrower screen shows no thumbnail.
    public static let textRoom = 20
    /// The lines a compact row may take: one (title and subtitle side by side) to three.
    public static let compactLineRange = 1...3

    public init(width: Int, thumbnail: CellSize) {
        self.width = width
        // A thumbnail needs room for itself and a useful amount of text beside it.
        self.thumbnail = width >= thumbnail.columns + Self.textRoom ? thumbnail : nil
        self.compactLines = nil
    }

    /// Compact rows `lines` high (within `compactLineRange`), each with a photo-shaped thumbnail as high as the row
    /// when the width leaves the text its room.
    public static func compact(width: Int, lines: Int) -> RowLayout {
        RowLayout(width: width, compactLines: min(max(lines, compactLineRange.lowerBound), compactLineRange.upperBound))
    }

    private init(width: Int, compactLines lines: Int) {
        self.width = width
        let thumbnail = ThumbnailSizing.shape(rows: lines)
        self.thumbnail = width >= thumbnail.columns + Self.textRoom ? thumbnail : nil
        self.compactLines = lines
    }

    /// The first column of the text beside the thumbnail.
    public var textColumn: Int { thumbnail.map { 2 + $0.columns + 1 } ?? 2 }
    public var textWidth: Int { max(1, width - textColumn - 1) }

    /// The blank lines under a row that part it from the next: one under the list's rows with thumbnails.
    public var gap: Int { compactLines == nil && thumbnail != nil ? 1 : 0 }

    /// The lines of text a row shows, wrapped (in compact rows, cut) for this width.
    public func textLines(for item: Item) -> RowText {
        let title = item.title.isEmpty ? "(untitled)" : item.title
        let subtitle = item.subtitle.isEmpty ? nil : item.subtitle
        let attribution = item.attribution.flatMap { $0.isEmpty ? nil : $0 }
        if let lines = compactLines {
            return Self.compactText(title, subtitle, attribution, lines: lines, width: textWidth)
        }
        let titleLines = TextWrap.lines(title, width: textWidth, maxLines: thumbnail == nil ? 2 : Self.maxTitleLines)
        let cut = { (text: String) in TextWrap.truncate(text, width: textWidth) }
        return RowText(title: titleLines, subtitle: subtitle.map(cut),
                       attribution: thumbnail == nil ? nil : attribution.map(cut))
    }

    /// A compact row's text: the title on its first line; the subtitle under it, or in a row of one line beside it
    /// when the title leaves room; the attribution on a third line.
    private static func compactText(_ title: String, _ subtitle: String?, _ attribution: String?, lines: Int,
                                    width: Int) -> RowText {
        let titleLine = TextWrap.truncate(title, width: width)
        guard lines == 1 else {
            return RowText(title: [titleLine], subtitle: subtitle.map { TextWrap.truncate($0, width: width) },
                           attribution: lines >= 3 ? attribution.map { TextWrap.truncate($0, width: width) } : nil)
        }
        let room = width - titleLine.displayWidth - RowText.besideGap
        guard let subtitle, room >= RowText.besideMinimum else { return RowText(title: [titleLine]) }
        return RowText(title: [titleLine], subtitle: TextWrap.truncate(subtitle, width: room), subtitleBeside: true)
    }

    /// The lines a row's thumbnail and text take, without the gap under it.
    public func contentHeight(for item: Item) -> Int {
        compactLines ?? contentHeight(of: textLines(for: item))
    }

    /// The lines a row whose text is laid out as `text` takes, without the gap under it.
    public func contentHeight(of text: RowText) -> Int {
        compactLines ?? max(thumbnail?.rows ?? 0, text.lineCount)
    }

    /// The height of an item's row, including the blank line that separates it from the next.
    public func height(for item: Item) -> Int {
        contentHeight(for: item) + gap
    }

    /// The height of the row at the end of the list (loading more, an error, the end).
    public var statusRowHeight: Int { 1 + gap }
}

/// The wrapped text of one row.
public struct RowText: Sendable, Equatable {
    /// The columns between a title and the subtitle beside it.
    static let besideGap = 2
    /// The fewest columns a subtitle beside the title is shown in.
    static let besideMinimum = 8

    public var title: [String]
    public var subtitle: String?
    public var attribution: String?
    /// Whether the subtitle goes on the title's line, after it (a compact row of one line), not under it.
    public var subtitleBeside = false
    public var lineCount: Int {
        title.count + (subtitle == nil || subtitleBeside ? 0 : 1) + (attribution == nil ? 0 : 1)
    }
}
