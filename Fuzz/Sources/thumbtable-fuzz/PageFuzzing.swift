import Foundation
import Items
import ItemSources

/// The fuzz target for the JSON page readers: body bytes parsed as `PageFetcher` parses them, then read by every
/// source that reads JSON pages (the generic key-path reader, SWAPI, jsonplaceholder photos).
enum PageFuzzing {
    static let page = URL(string: "https://api.example/list?page=1")!
    /// The generic reader with the shapes it is used for: SWAPI-like, nested with array indices, and Flickr's feed.
    static let readers = [
        JSONAPISource(url: page, keyPaths: .init(items: "results", title: "name", subtitle: "classification",
                                                 image: "url", next: "next")),
        JSONAPISource(url: page, keyPaths: .init(items: "data.children", title: "data.title", image: "data.0.url",
                                                 thumbnail: "thumb", pageParameter: "page", limitParameter: "limit")),
        JSONAPISource(url: page, keyPaths: JSONAPISource.flickrFeed),
        JSONAPISource(url: page, keyPaths: .init(items: "", title: "title", image: "url", thumbnail: "thumbnailUrl")),
    ]

    static let target = FuzzTarget(name: "json",
                                   summary: "JSON page bytes through the bounded page reader, then JSONAPISource, SWAPISource, PhotosSource") {
        bytes in
        // As PageFetcher reads a page: the bounded reader, with its default limits.
        guard let read = try? JSONPageReader.read(Array(bytes)) else { return }
        let json = read.value
        var pages: [ItemPage] = []
        for reader in readers {
            if let parsed = try? reader.parsePage(json, at: reader.firstPage, url: page) { pages.append(parsed) }
        }
        if let parsed = try? SWAPISource.parsePage(json, url: page) { pages.append(parsed) }
        if let parsed = try? PhotosSource.parsePage(json, url: page, linkHeader: "<?page=2>; rel=\"next\"",
                                                    totalHeader: "12", limit: 20) { pages.append(parsed) }
        // What a server's page gives may only point at http and https, however hostile the page.
        for parsed in pages {
            promise(parsed.items.count <= JSONPageReader.Limits.default.maxElements, "a page kept more rows than its limit")
            for item in parsed.items {
                for url in [item.imageURL, item.thumbnailURL].compactMap(\.self) {
                    promise(["http", "https"].contains(url.scheme?.lowercased() ?? ""), "a remote page gave \(url)")
                }
            }
            if case .url(let next)? = parsed.next {
                promise(["http", "https"].contains(next.scheme?.lowercased() ?? ""), "a remote page's next is \(next)")
            }
        }
    }
}
