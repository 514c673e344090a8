import ArgumentParser
import Foundation
import ItemSources

/// `thumbtable browse URL --items KEYPATH --title KEYPATH ...`: any paged JSON API.
struct BrowseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Browse any paged JSON API, reading items by dotted key paths.",
        discussion: """
            Example: thumbtable browse 'https://api.example.com/things' --items results --title name \
            --image image_url --next next
            """)

    @Argument(help: "The URL of the first page.")
    var url: String

    @Option(help: "Key path of the list of items in a page (empty: the page is the list).")
    var items = ""

    @Option(help: "Key path of an item's title.")
    var title: String

    @Option(help: "Key path of an item's subtitle.")
    var subtitle: String?

    @Option(help: "Key path of an item's image URL (the detail pane's picture).")
    var image: String?

    @Option(help: "Key path of an item's small image URL (the row's thumbnail).")
    var thumb: String?

    @Option(help: "Key path of the next page's URL in a page.")
    var next: String?

    @Option(help: "Count pages with this query parameter instead (e.g. _page).")
    var pageParam: String?

    @Option(help: "The page size query parameter to send with --page-param (e.g. _limit).")
    var limitParam: String?

    @Option(help: "Items a page with --limit-param.")
    var limit = 20

    @OptionGroup var display: DisplayOptions

    func validate() throws {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? "") else {
            throw ValidationError("browse needs an http(s) URL, got '\(url)'")
        }
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1") }
    }

    @MainActor
    func run() async throws {
        let source = JSONAPISource(url: URL(string: url)!, keyPaths: .init(
            items: items, title: title, subtitle: subtitle, image: image, thumbnail: thumb, next: next,
            pageParameter: pageParam, limitParameter: limitParam, limit: limit))
        try await display.runApp(source: source)
    }
}
