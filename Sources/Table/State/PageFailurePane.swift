import Basics
import FoundationEssentials

/// The pane opened with Enter on the row of a page that failed: the whole reason, where the row itself has room for
/// one line of it, and where its text is scrolled (`PageFailurePaneView` draws it).
@MainActor
public final class PageFailurePane {
    /// The reason, as `reason(_:)` words it.
    public let reason: String
    /// Whether no row had loaded when the page failed (the first page).
    public let firstPage: Bool
    /// Rows loaded before the failure, which stay.
    public let loadedRows: Int
    public internal(set) var textScroll = TextScroll()

    init(reason: String, firstPage: Bool, loadedRows: Int) {
        self.reason = reason
        self.firstPage = firstPage
        self.loadedRows = loadedRows
    }

    /// Scrolls the text by `lines` (negative: up), within its length.
    public func scroll(by lines: Int) {
        textScroll.scroll(by: lines)
    }

    /// A failed page's message as the table shows it: without the full stop that ends it (sources say what failed;
    /// the table says how to retry, once, where the user looks).
    static func reason(_ message: String) -> String {
        var text = message.trimmingSpacesAndLineEnds()
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// What failed: the list itself when no row has loaded, else its next rows.
    static func heading(firstPage: Bool) -> String {
        firstPage ? "Could not load the list" : "Could not load more rows"
    }
}
