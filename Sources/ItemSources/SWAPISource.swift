import FoundationEssentials
import Items

/// The Star Wars API's species, 10 a page, following each page's `next` URL; every row's picture comes from a
/// second request, an Instant Answer lookup of "NAME star wars" (the SWAPI tutorial's two-step lookup).
///
/// The lookups for a page's species run concurrently before the page is returned, so a row arrives with its image
/// URL and attribution already known and the image pipeline treats it like any other row. A species whose lookup
/// fails or finds no image is a row without a thumbnail whose detail pane says why; the page itself still loads.
public struct SWAPISource: ItemSource {
    public static let defaultBaseURL = URL(string: "https://swapi.dev/api/")!
    public static let defaultImageSearchURL = URL(string: "https://api.duckduckgo.com/")!
    public static let defaultAttribution = "All images from DuckDuckGo Instant Answers API"

    public let name: String
    public let attribution: String
    /// The API's root; species are at `species/` under it.
    public let baseURL: URL
    /// The image lookup, or nil for rows without pictures.
    public let lookup: InstantAnswerLookup?
    private let fetcher: PageFetcher

    public init(baseURL: URL = defaultBaseURL, imageSearchURL: URL? = defaultImageSearchURL,
                name: String = "SWAPI species", attribution: String = defaultAttribution, timeout: TimeInterval = 15) {
        self.baseURL = baseURL
        self.name = name
        self.attribution = attribution
        lookup = imageSearchURL.map { InstantAnswerLookup(endpoint: $0, timeout: timeout) }
        fetcher = PageFetcher(timeout: timeout)
    }

    public var firstPage: PageCursor {
        let root = baseURL.absoluteString.hasSuffix("/") ? baseURL.absoluteString : baseURL.absoluteString + "/"
        return .url(URL(string: root + "species/")!)
    }

    public func page(at cursor: PageCursor) async throws -> ItemPage {
        guard case .url(let url) = cursor else { throw ItemSourceError("SWAPI pages are URLs, not \(cursor)") }
        let fetched = try await fetcher.json(url)
        var page = try Self.parsePage(fetched.json, url: url)
        page.notes = fetched.notes + page.notes
        guard let lookup else { return page }
        let species = page.items
        page.items = await withTaskGroup(of: (Int, Item).self) { group in
            // A few lookups at a time: a page may list thousands of species.
            var items = species
            var pending = species.enumerated().makeIterator()
            func addNext() {
                guard let (index, item) = pending.next() else { return }
                group.addTask { (index, Self.attach(await lookup.answer(for: item.title), to: item)) }
            }
            for _ in 0..<Self.concurrentLookups { addNext() }
            for await (index, item) in group {
                items[index] = item
                addNext()
            }
            return items
        }
        return page
    }

    /// Repeats the Instant Answer lookup of a species (failed lookups are not cached, so this asks again).
    public func refreshImage(of item: Item) async -> Item? {
        guard let lookup else { return nil }
        return Self.attach(await lookup.answer(for: item.title), to: item)
    }

    /// Image lookups made at once for one page: a whole SWAPI page (10), or the demo's (25), in one round, so a page
    /// waits for one lookup's latency, not several.
    static let concurrentLookups = 25

    /// A page's species as items, without pictures yet.
    package static func parsePage(_ json: Any, url: URL) throws(ItemSourceError) -> ItemPage {
        let address = url.absoluteString
        guard let object = json as? [String: Any] else {
            throw ItemSourceError("\(address) answered \(PageFetcher.kind(json)), not a SWAPI page "
                                  + "(an object with count, next, previous, results)")
        }
        guard let rawResults = object["results"] else {
            throw ItemSourceError("\(address) has no \"results\" (a SWAPI page has count, next, previous, results)")
        }
        guard let results = rawResults as? [Any] else {
            throw ItemSourceError("\"results\" in \(address) is \(PageFetcher.kind(rawResults)), not a list")
        }
        let count = object["count"] as? Int
        guard !results.isEmpty else {
            throw ItemSourceError("\(address) is an empty page: \"results\" is []"
                                  + (count.map { " although count says \($0)" } ?? ""))
        }
        var next: PageCursor?
        var notes: [String] = []
        switch object["next"] {
        case nil, is JSONPageReader.JSONNull: next = nil
        case let text as String:
            switch RemoteLink.resolve(text, against: url) {
            case .success(let nextURL): next = .url(nextURL)
            case .failure(let refusal):
                // The rows of this page are good; only the way on is not.
                notes.append("the list stops here: \"next\" in \(address) is \(refusal)")
            }
        case let other:
            throw ItemSourceError("\"next\" in \(address) is \(PageFetcher.kind(other)), not a URL or null")
        }
        var items: [Item] = []
        for (index, element) in results.enumerated() {
            guard let record = element as? [String: Any] else {
                throw ItemSourceError("result \(index + 1) in \(address) is \(PageFetcher.kind(element)), not a species")
            }
            guard let rawName = record["name"] else {
                throw ItemSourceError("result \(index + 1) in \(address) has no \"name\"")
            }
            guard let name = rawName as? String else {
                throw ItemSourceError("\"name\" of result \(index + 1) in \(address) is \(PageFetcher.kind(rawName)), "
                                      + "not text")
            }
            items.append(item(name: name, record: record))
        }
        return ItemPage(items: items, next: next, totalCount: count, notes: notes)
    }

    static func item(name: String, record: [String: Any]) -> Item {
        func text(_ key: String) -> String? {
            JSONPageReader.scalarText(record[key])
        }
        let url = text("url")
        var fields: [Item.Field] = []
        for (key, label) in [("classification", "Classification"), ("designation", "Designation"),
                             ("average_height", "Average height (cm)"), ("average_lifespan", "Average lifespan"),
                             ("skin_colors", "Skin colours"), ("hair_colors", "Hair colours"),
                             ("eye_colors", "Eye colours"), ("language", "Language"), ("homeworld", "Homeworld")] {
            // The homeworld is a planet's API record, JSON, not a page to read.
            if let value = text(key) { fields.append(Item.Field(label, value, link: key == "homeworld" ? .record : nil)) }
        }
        if let people = record["people"] as? [Any] { fields.append(Item.Field("People", "\(people.count)")) }
        if let url { fields.append(Item.Field("Record", url, link: .record)) }
        let subtitle = [text("classification"), text("designation"), text("language")]
            .compactMap { $0 }.filter { !$0.isEmpty && $0 != "n/a" && $0 != "unknown" }.joined(separator: " · ")
        return Item(id: url ?? name, title: name, subtitle: subtitle, fields: fields)
    }

    /// The item with the lookup's result in place of any earlier one, and its picture and attribution when the
    /// answer has a picture.
    static func attach(_ result: Result<InstantAnswerLookup.Answer, ItemSourceError>, to item: Item) -> Item {
        var item = item
        switch result {
        case .failure(let error):
            item.imageLookup = .failed(reason: error.message)
        case .success(let answer):
            item.imageLookup = .answered(answer)
            if let image = answer.image {
                item.imageURL = image
                item.attribution = "Image from \(answer.abstractURL) \(answer.abstractSource)"
            }
        }
        return item
    }
}
