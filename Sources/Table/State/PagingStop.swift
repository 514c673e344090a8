import FoundationEssentials
import Items

/// Why the table stopped asking a source for pages before the source said the list ends: what keeps a broken or
/// hostile source (a `next` link to itself, endless empty pages, an endless list) from making the table page for
/// ever.
public enum PagingStop: Sendable, Equatable {
    /// The next page's link leads back to a page already loaded (a page naming itself, two naming each other, in any
    /// spelling of the same URL): the list ends here.
    case nextAlreadyLoaded(String)
    /// A page came with the same rows as one already loaded (a server that ignores the page number or a junk
    /// parameter added to the link): the list ends here, without the repeated rows.
    case repeatedRows(page: Int, sameAs: Int)
    /// `count` pages in a row came without a row; `r` on the last row asks for `next` again.
    case emptyPages(count: Int, next: PageCursor)
    /// The list holds `rows` rows, the most a list holds (`ListState.rowCeiling`).
    case rowCeiling(rows: Int)
    /// The list's text (titles, fields, links) reached `bytes`, the most a list holds (`ListState.textCeiling`).
    case textCeiling(bytes: Int)

    /// The cursor to ask for when the user asks again (`r`), for a stop that may be asked again.
    public var resumeCursor: PageCursor? {
        if case .emptyPages(_, let next) = self { return next }
        return nil
    }

    /// Why paging stopped, in words for the status line, the list's last row and stderr (the keys that ask again
    /// are the table's to say).
    public var note: String {
        switch self {
        case .nextAlreadyLoaded(let next):
            "the list stops here: its next page, \(Self.shortened(next)), was loaded already"
        case .repeatedRows(let page, let first):
            "the list stops here: page \(page) has the same rows as page \(first)"
        case .emptyPages(let count, _):
            "paging stopped: \(count) empty pages in a row"
        case .rowCeiling(let rows):
            "the list stops at \(rows) rows, the most a list holds"
        case .textCeiling(let bytes):
            "the list stops here: its text reached \(bytes >> 20) MB, the most a list holds"
        }
    }

    /// A link from a server, cut so that one note cannot fill the screen.
    static func shortened(_ text: String, limit: Int = 80) -> String {
        text.count > limit ? text.prefix(limit) + "…" : text
    }
}
