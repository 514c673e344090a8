import Basics
import FoundationEssentials
import Items

/// Any paged JSON API, read by dotted key paths: where the list of items is, and where each item keeps its title,
/// subtitle and image URLs. The next page is found by a `next` URL in the body, or by counting pages with a page
/// parameter. Relative URLs are resolved against the page's URL.
public struct JSONAPISource: ItemSource {
    /// Where things are in the JSON. A key path is dotted (`data.children`); a number indexes an array; an empty
    /// path is the body itself.
    public struct KeyPaths: Sendable {
        public var items: String
        public var title: String
        public var subtitle: String?
        public var image: String?
        public var thumbnail: String?
        /// Where an item keeps the URL of its page for people to read (Flickr's `link`): what `o` opens and `y`
        /// copies. Without it they take the item's image, since no other field says it is a page.
        public var page: String?
        public var next: String?
        public var pageParameter: String?
        public var limitParameter: String?
        public var limit: Int

        public init(items: String, title: String, subtitle: String? = nil, image: String? = nil,
                    thumbnail: String? = nil, page: String? = nil, next: String? = nil,
                    pageParameter: String? = nil, limitParameter: String? = nil, limit: Int = 20) {
            self.items = items
            self.title = title
            self.subtitle = subtitle
            self.image = image
            self.thumbnail = thumbnail
            self.page = page
            self.next = next
            self.pageParameter = pageParameter
            self.limitParameter = limitParameter
            self.limit = limit
        }
    }

    public let url: URL
    public let keyPaths: KeyPaths
    public let name: String
    public let attribution: String
    private let timeout: TimeInterval

    public init(url: URL, keyPaths: KeyPaths, timeout: TimeInterval = 15) {
        self.url = url
        self.keyPaths = keyPaths
        self.timeout = timeout
        let host = url.host ?? url.absoluteString
        name = "JSON API · \(host)"
        attribution = "All images from \(host), as its API lists them"
    }

    public var firstPage: PageCursor {
        keyPaths.pageParameter == nil ? .url(url) : .number(1)
    }

    public func page(at cursor: PageCursor) async throws -> ItemPage {
        let pageURL: URL
        switch cursor {
        case .url(let next): pageURL = next
        case .number(let number): pageURL = numberedPageURL(number)
        case .offset: throw ItemSourceError("this source has no page \(cursor)")
        }
        let fetched = try await PageFetcher(timeout: timeout).json(pageURL)
        var page = try parsePage(fetched.json, at: cursor, url: pageURL)
        page.notes = fetched.notes + page.notes
        // json-server's and many REST APIs' total, when the server sends it.
        page.totalCount = fetched.reply.header("X-Total-Count").flatMap { Int($0.trimmingSpaces()) }
        return page
    }

    /// A page's items and next cursor from its parsed body: everything `page(at:)` does after the fetch, pure, so
    /// that the fuzzer (`Fuzz/`) can drive it with hostile JSON.
    package func parsePage(_ json: Any, at cursor: PageCursor, url pageURL: URL) throws(ItemSourceError) -> ItemPage {
        guard let found = Self.value(at: keyPaths.items, in: json) else {
            throw ItemSourceError("\(pageURL.absoluteString) has no \"\(keyPaths.items)\" (the --items key path)")
        }
        guard let list = found as? [Any] else {
            throw ItemSourceError("\"\(keyPaths.items)\" in \(pageURL.absoluteString) is not a list of items")
        }
        let items = list.enumerated().map { offset, element in
            Self.item(element, keyPaths: keyPaths, id: "\(pageURL.absoluteString)#\(offset)", linksAgainst: pageURL)
        }
        let refusals = items.enumerated().compactMap { offset, item in
            RemoteLink.itemNote(index: offset, refused: item.fields.filter { $0.link == .refused }.map(\.value))
        }
        // What concerns the whole page first: the status line may only have room for it.
        var pageNotes: [String] = []
        let next = nextCursor(after: cursor, json: json, page: pageURL, count: items.count, notes: &pageNotes)
        return ItemPage(items: items, next: next, notes: pageNotes, itemNotes: refusals)
    }

    private func numberedPageURL(_ number: Int) -> URL {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        var query = components?.queryItems ?? []
        if let name = keyPaths.pageParameter {
            query.removeAll { $0.name == name }
            query.append(URLQueryItem(name: name, value: String(number)))
        }
        if let name = keyPaths.limitParameter {
            query.removeAll { $0.name == name }
            query.append(URLQueryItem(name: name, value: String(keyPaths.limit)))
        }
        components?.queryItems = query
        return components?.url ?? url
    }

    private func nextCursor(after cursor: PageCursor, json: Any, page: URL, count: Int, notes: inout [String])
        -> PageCursor?
    {
        if case .number(let number) = cursor {
            return count > 0 && (keyPaths.limitParameter == nil || count >= keyPaths.limit) ? .number(number + 1) : nil
        }
        guard let path = keyPaths.next, let next = Self.value(at: path, in: json) as? String, !next.isEmpty else {
            return nil
        }
        switch RemoteLink.resolve(next, against: page) {
        case .success(let nextURL): return .url(nextURL)
        case .failure(let refusal):
            notes.append("the list stops here: the next page's link \(refusal)")
            return nil
        }
    }

    /// An item read from a JSON value by `keyPaths`: its title, subtitle and images, and every scalar key as a
    /// field. Links are resolved against `page` and must be http(s); without a page, only absolute URLs are taken.
    static func item(_ element: Any, keyPaths: KeyPaths, id: String, linksAgainst page: URL?) -> Item {
        func text(_ path: String?) -> String? {
            guard let path else { return nil }
            return JSONPageReader.scalarText(Self.value(at: path, in: element))
        }
        var refused: [String] = []
        func link(_ path: String?) -> URL? {
            text(path).flatMap { RemoteLink.resolve($0, against: page, notes: &refused) }
        }
        let title = text(keyPaths.title) ?? "(no \"\(keyPaths.title)\" in this item)"
        var fields: [Item.Field] = []
        if let object = element as? [String: Any] {
            for key in object.keys.sorted() {
                // Only the key paths the user named make a field a link; a URL elsewhere is shown as text.
                let kind: Item.Field.Link? = key == keyPaths.image || key == keyPaths.thumbnail ? .image : nil
                if let value = text(key) { fields.append(Item.Field(key, value, link: kind)) }
            }
        }
        let image = link(keyPaths.image)
        let thumbnail = link(keyPaths.thumbnail)
        if let path = keyPaths.page, let page = link(path) {
            if let index = fields.firstIndex(where: { $0.label == path }) {
                fields[index] = Item.Field(path, page.absoluteString, link: .page)
            } else {
                fields.append(Item.Field(path, page.absoluteString, link: .page))
            }
        }
        fields += refused.map { Item.Field(RemoteLink.fieldLabel, $0, link: .refused) }
        return Item(id: id, title: title, subtitle: text(keyPaths.subtitle) ?? "",
                    fields: fields, imageURL: image, thumbnailURL: thumbnail,
                    attribution: (image ?? thumbnail).map { "Image from \($0.host ?? $0.absoluteString)" })
    }

    /// The value at a dotted key path: object keys, and numbers as array indices. An empty path is the value.
    public static func value(at path: String, in json: Any) -> Any? {
        var current: Any = json
        for key in path.split(separator: ".", omittingEmptySubsequences: true) {
            if let object = current as? [String: Any], let next = object[String(key)] {
                current = next
            } else if let array = current as? [Any], let index = Int(key), array.indices.contains(index) {
                current = array[index]
            } else {
                return nil
            }
        }
        return current is JSONPageReader.JSONNull ? nil : current
    }
}

extension JSONAPISource {
    /// Flickr's public photo feed (`photos_public.gne?format=json&nojsoncallback=1`): one page of `items`, each
    /// with a `title`, an `author`, the picture at `media.m` and the photo's page at `link`.
    public static let flickrFeed = KeyPaths(items: "items", title: "title", subtitle: "author", image: "media.m",
                                            page: "link")
}
