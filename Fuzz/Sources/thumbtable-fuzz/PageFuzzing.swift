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
                                   summary: "JSON page bytes through JSONAPISource, SWAPISource, PhotosSource") {
        bytes in
        guard !bytes.isEmpty,
              let json = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        else { return }
        for reader in readers {
            _ = try? reader.parsePage(json, at: reader.firstPage, url: page)
        }
        _ = try? SWAPISource.parsePage(json, url: page)
        _ = try? PhotosSource.parsePage(json, url: page, linkHeader: "<?page=2>; rel=\"next\"", totalHeader: "12",
                                        limit: 20)
    }
}
