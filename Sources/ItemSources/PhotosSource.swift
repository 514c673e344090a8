import Basics
import FoundationEssentials
import Items

/// jsonplaceholder's `/photos`, paged the json-server way: `_page` and `_limit`, with the next page's URL in the
/// `Link` header and the total in `X-Total-Count`. Rows show `thumbnailUrl`; the detail pane shows `url`.
public struct PhotosSource: ItemSource {
    public static let defaultBaseURL = URL(string: "https://jsonplaceholder.typicode.com/")!

    public let name: String
    public let attribution: String
    public let baseURL: URL
    public let limit: Int
    private let fetcher: PageFetcher

    public init(baseURL: URL = defaultBaseURL, limit: Int = 20, timeout: TimeInterval = 15) {
        self.baseURL = baseURL
        self.limit = max(1, limit)
        fetcher = PageFetcher(timeout: timeout)
        let host = baseURL.host ?? baseURL.absoluteString
        name = "Photos · \(host)"
        attribution = "Photos from \(host) (jsonplaceholder, MIT); images from the URLs its records give"
    }

    public var firstPage: PageCursor { .url(pageURL(1)) }

    func pageURL(_ number: Int) -> URL {
        let root = baseURL.absoluteString.hasSuffix("/") ? baseURL.absoluteString : baseURL.absoluteString + "/"
        return URL(string: root + "photos?_page=\(number)&_limit=\(limit)")!
    }

    public func page(at cursor: PageCursor) async throws -> ItemPage {
        let url: URL
        switch cursor {
        case .url(let next): url = next
        case .number(let number): url = pageURL(number)
        case .offset: throw ItemSourceError("jsonplaceholder pages are URLs, not \(cursor)")
        }
        let page = try await fetcher.json(url)
        var parsed = try Self.parsePage(page.json, url: url, linkHeader: page.reply.header("Link"),
                                        totalHeader: page.reply.header("X-Total-Count"), limit: limit)
        parsed.notes = page.notes + parsed.notes
        return parsed
    }

    package static func parsePage(_ json: Any, url: URL, linkHeader: String?, totalHeader: String?,
                          limit: Int) throws(ItemSourceError) -> ItemPage {
        let address = url.absoluteString
        guard let records = json as? [Any] else {
            throw ItemSourceError("\(address) answered \(PageFetcher.kind(json)), not a list of photos")
        }
        guard !records.isEmpty else {
            throw ItemSourceError("\(address) answered an empty list: no photos on this page")
        }
        var items: [Item] = []
        var refusals: [ItemNote] = []
        for (index, element) in records.enumerated() {
            guard let record = element as? [String: Any] else {
                throw ItemSourceError("photo \(index + 1) in \(address) is \(PageFetcher.kind(element)), not an object")
            }
            guard let id = record["id"] as? Int else {
                throw ItemSourceError("photo \(index + 1) in \(address) has "
                                      + (record["id"] == nil ? "no \"id\"" : "\(PageFetcher.kind(record["id"])) as \"id\", not a number"))
            }
            guard let title = record["title"] as? String else {
                throw ItemSourceError("photo \(id) in \(address) has "
                                      + (record["title"] == nil ? "no \"title\"" : "\(PageFetcher.kind(record["title"])) as \"title\", not text"))
            }
            let album = record["albumId"] as? Int
            var refused: [String] = []
            let image = (record["url"] as? String).flatMap { RemoteLink.resolve($0, against: url, notes: &refused) }
            let thumbnail = (record["thumbnailUrl"] as? String)
                .flatMap { RemoteLink.resolve($0, against: url, notes: &refused) }
            var fields = [Item.Field("Photo", "\(id)")]
            if let album { fields.append(Item.Field("Album", "\(album)")) }
            fields += refused.map { Item.Field(RemoteLink.fieldLabel, $0, link: .refused) }
            if let note = RemoteLink.itemNote(index: index, refused: refused) { refusals.append(note) }
            let host = (thumbnail ?? image)?.host
            items.append(Item(id: "photo-\(id)", title: title,
                              subtitle: "photo \(id)" + (album.map { " · album \($0)" } ?? ""), fields: fields,
                              imageURL: image, thumbnailURL: thumbnail, attribution: host.map { "Image from \($0)" }))
        }
        // What concerns the whole page first: the status line may only have room for it.
        var notes: [String] = []
        let next: PageCursor?
        if let linkHeader {
            next = Self.link("next", in: linkHeader).flatMap { target in
                RemoteLink.resolve(target, against: url, notes: &notes).map { .url($0) }
            }
        } else if records.count >= limit, let page = Self.pageNumber(of: url) {
            // No Link header: keep counting pages while they come full.
            next = .number(page + 1)
        } else {
            next = nil
        }
        return ItemPage(items: items, next: next, totalCount: totalHeader.flatMap { Int($0) },
                        notes: notes, itemNotes: refusals)
    }

    /// The target of `rel` in a `Link` header (`<URL>; rel="next", <URL>; rel="last"`), as the server wrote it.
    static func link(_ rel: String, in header: String) -> String? {
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingSpaces() }
            guard let target = pieces.first, target.hasPrefix("<"), target.hasSuffix(">") else { continue }
            let rels = pieces.dropFirst().filter { $0.lowercased().hasPrefix("rel=") }
                .flatMap { $0.dropFirst(4).trimming(while: { $0 == "\"" }).split(separator: " ") }
            if rels.contains(where: { $0 == rel }) {
                return String(target.dropFirst().dropLast())
            }
        }
        return nil
    }

    static func pageNumber(of url: URL) -> Int? {
        URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems?.first { $0.name == "_page" }?.value
            .flatMap { Int($0) }
    }
}
