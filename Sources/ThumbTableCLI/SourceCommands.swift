import ArgumentParser
import FoundationEssentials
import Items
import ItemSources

/// An http(s) URL option, checked with a message naming the option.
func httpURL(_ text: String, option: String) throws -> URL {
    guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
        throw ValidationError("\(option) needs an http(s) URL, got '\(text)'")
    }
    return url
}

/// `thumbtable swapi`: SWAPI species, each row's picture from a DuckDuckGo Instant Answer lookup.
struct SWAPICommand: BrowsingCommand {
    static let configuration = CommandConfiguration(
        commandName: "swapi",
        abstract: "Browse SWAPI species with pictures from DuckDuckGo Instant Answers (needs the internet).",
        discussion: """
            Each row asks the Instant Answer API about "NAME star wars" and shows its Image. Against the demo \
            server: thumbtable swapi --base-url http://127.0.0.1:8737/api/ --image-search-url http://127.0.0.1:8737/ia/
            """)

    @Option(help: "The API root; species are at species/ under it.")
    var baseURL = SWAPISource.defaultBaseURL.absoluteString

    @Option(help: "The Instant Answer endpoint asked for each row's picture.")
    var imageSearchURL = SWAPISource.defaultImageSearchURL.absoluteString

    @OptionGroup var display: DisplayOptions

    func validate() throws {
        _ = try httpURL(baseURL, option: "--base-url")
        _ = try httpURL(imageSearchURL, option: "--image-search-url")
    }

    func source() throws -> any ItemSource {
        SWAPISource(baseURL: try httpURL(baseURL, option: "--base-url"),
                    imageSearchURL: try httpURL(imageSearchURL, option: "--image-search-url"), timeout: display.timeout)
    }
}

/// `thumbtable photos`: jsonplaceholder's photos, paged by `_page`/`_limit` and the `Link` header.
struct PhotosCommand: BrowsingCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "Browse jsonplaceholder's photos (needs the internet, or --base-url pointing at serve-demo).")

    @Option(help: "The site's root; photos are at photos under it.")
    var baseURL = PhotosSource.defaultBaseURL.absoluteString

    @Option(parsing: .unconditional, help: "Photos a page (1 to \(Ceiling.pageItems)).")
    var limit = 20

    @OptionGroup var display: DisplayOptions

    func validate() throws {
        _ = try httpURL(baseURL, option: "--base-url")
        try Ceiling.check(limit, "--limit", in: 1...Ceiling.pageItems)
    }

    func source() throws -> any ItemSource {
        PhotosSource(baseURL: try httpURL(baseURL, option: "--base-url"), limit: limit, timeout: display.timeout)
    }
}

/// `thumbtable flickr`: Flickr's public photo feed, a preset of `browse` (items, title, media.m).
struct FlickrCommand: BrowsingCommand {
    static let configuration = CommandConfiguration(
        commandName: "flickr",
        abstract: "Browse Flickr's public photo feed (needs the internet).")

    @Option(help: "Only photos with these tags (comma-separated).")
    var tags: String?

    @Option(help: "The feed's URL.")
    var feedURL = "https://api.flickr.com/services/feeds/photos_public.gne"

    @OptionGroup var display: DisplayOptions

    func validate() throws {
        _ = try httpURL(feedURL, option: "--feed-url")
    }

    func source() throws -> any ItemSource {
        var components = URLComponents(url: try httpURL(feedURL, option: "--feed-url"), resolvingAgainstBaseURL: true)!
        var query = components.queryItems ?? []
        query += [URLQueryItem(name: "format", value: "json"), URLQueryItem(name: "nojsoncallback", value: "1")]
        if let tags { query.append(URLQueryItem(name: "tags", value: tags)) }
        components.queryItems = query
        return JSONAPISource(url: components.url!, keyPaths: JSONAPISource.flickrFeed)
    }
}
