import DemoServer
import Foundation
import Items
@testable import ItemSources
import TestSupport
import Testing

/// The demo data, read from the checkout.
/// Every page of a source, following its cursors.
func allItems(of source: some ItemSource) async throws -> [Item] {
    var items: [Item] = []
    var cursor: PageCursor? = source.firstPage
    while let current = cursor {
        let page = try await source.page(at: current)
        items += page.items
        cursor = page.next
    }
    return items
}

/// The message a user sees for a page that fails (the error row's text).
func pageError(_ source: some ItemSource, at cursor: PageCursor? = nil) async -> String? {
    do {
        _ = try await source.page(at: cursor ?? source.firstPage)
        return nil
    } catch {
        return String(describing: error)
    }
}

func field(_ item: Item, _ label: String) -> String? {
    item.allFields.first { $0.label == label }?.value
}

@Suite struct SWAPISourceTests {
    @Test func pagesThroughThe37SpeciesOfTheDemoServerWithPicturesFromTheLookup() async throws {
        try await withDemoServer { server in
            let source = SWAPISource(baseURL: server.apiURL, imageSearchURL: server.instantAnswerURL)
            let first = try await source.page(at: source.firstPage)
            #expect(first.items.count == 10)
            #expect(first.totalCount == 37)
            #expect(first.next == .url(URL(string: server.baseURL.absoluteString + "/api/species/?page=2")!))
            let items = try await allItems(of: source)
            #expect(items.count == 37)
            #expect(items.first?.title == "Human" && items.last?.title == "Pau'an")
            #expect(source.attribution == "All images from DuckDuckGo Instant Answers API")

            let wookie = try #require(items.first { $0.title == "Wookie" })
            let image = try #require(wookie.imageURL)
            #expect(image.absoluteString.hasPrefix(server.baseURL.absoluteString + "/media/"),
                    "the relative Image is resolved against the lookup's server")
            #expect(wookie.attribution?.hasPrefix("Image from https://scikit-image.org scikit-image sample data, ") == true)
            #expect(field(wookie, "Classification") == "mammal")
            #expect(field(wookie, "Image lookup")?.contains("/ia/?q=Wookie%20star%20wars&format=json") == true)
            // Each link says what it is: the page to read, the picture, the API's JSON (the homeworld included).
            let links = Dictionary(wookie.allFields.compactMap { f in f.link.map { (f.label, $0) } },
                                   uniquingKeysWith: { a, _ in a })
            #expect(links == ["Abstract URL": .page, "Image": .image, "Image lookup": .record, "Homeworld": .record,
                              "Record": .record])

            let hutt = try #require(items.first { $0.title == "Hutt" })
            #expect(hutt.imageURL == nil && hutt.attribution == nil)
            #expect(field(hutt, "Image") == #"none: the Instant Answer for "Hutt star wars" has no image ("Image" is empty)"#)
        }
    }

    @Test func lookupsAreCachedByNameAndShareOneRequest() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/ia", .ok(Array(#"{"Heading":"Human","Image":"/i/h.png","AbstractSource":"Wikipedia","AbstractURL":"https://en.wikipedia.org/wiki/Human"}"#.utf8)))
            let lookup = InstantAnswerLookup(endpoint: server.url("/ia/"))
            async let a = lookup.answer(for: "Human")
            async let b = lookup.answer(for: "Human")
            let (first, second) = await (a, b)
            let third = await lookup.answer(for: "Human")
            let answer: InstantAnswerLookup.Answer = try first.get()
            #expect(answer.image == server.url("/i/h.png"))
            #expect(second == first && third == first)
            #expect(server.requests(to: "/ia").count == 1)
            #expect(server.requests(to: "/ia").first?.query == ["q": "Human star wars", "format": "json"])
        }
    }

    @Test func relativeImagesFromTheRealAPIPointAtDuckDuckGosSite() {
        let url = URL(string: "https://api.duckduckgo.com/?q=Rust&format=json")!
        let answer = InstantAnswerLookup.parse(Array(#"{"Image":"/i/832f249b.png"}"#.utf8), query: "Rust", url: url,
                                               imageBase: URL(string: "https://duckduckgo.com/")!)
        let image = (try? answer.get())?.image
        #expect(image?.absoluteString == "https://duckduckgo.com/i/832f249b.png")
    }

    // MARK: Bad input: each asserts the message a user sees.

    /// A SWAPI source against a test server that answers `/api/species/` with `body`.
    func source(answering reply: TestHTTPServer.Reply, on server: TestHTTPServer) -> SWAPISource {
        server.serve("/api/species", reply)
        return SWAPISource(baseURL: server.url("/api/"), imageSearchURL: nil)
    }

    @Test func malformedJSONNamesTheURLAndQuotesTheBody() async throws {
        try await TestHTTPServer.with { server in
            let source = source(answering: .text("{\"count\": 37, \"results\": [oops"), on: server)
            #expect(await pageError(source) == "\(server.url("/api/species/").absoluteString) did not answer with JSON "
                + "(expected a value, found 'o' at byte 26): {\"count\": 37, \"results\": [oops")
        }
    }

    @Test func aMissingKeyIsNamed() async throws {
        try await TestHTTPServer.with { server in
            let source = source(answering: .text(#"{"count": 37, "next": null}"#), on: server)
            #expect(await pageError(source) == "\(server.url("/api/species/").absoluteString) has no \"results\" "
                + "(a SWAPI page has count, next, previous, results)")
        }
    }

    @Test func aWrongTypeIsNamedWithWhatWasThere() async throws {
        try await TestHTTPServer.with { server in
            let url = server.url("/api/species/").absoluteString
            var source = source(answering: .text(#"{"count": 37, "results": 5}"#), on: server)
            #expect(await pageError(source) == "\"results\" in \(url) is a number, not a list")
            source = self.source(answering: .text(#"{"results": [{"name": 7}]}"#), on: server)
            #expect(await pageError(source) == "\"name\" of result 1 in \(url) is a number, not text")
            source = self.source(answering: .text(#"{"results": [{"name": "A"}], "next": 2}"#), on: server)
            #expect(await pageError(source) == "\"next\" in \(url) is a number, not a URL or null")
        }
    }

    @Test func anEmptyPageSaysSo() async throws {
        try await TestHTTPServer.with { server in
            let source = source(answering: .text(#"{"count": 37, "next": null, "results": []}"#), on: server)
            #expect(await pageError(source) == "\(server.url("/api/species/").absoluteString) is an empty page: "
                + "\"results\" is [] although count says 37")
        }
    }

    @Test func aPagePastTheEndIsA404WithTheServersDetail() async throws {
        try await withDemoServer { server in
            let source = SWAPISource(baseURL: server.apiURL, imageSearchURL: nil)
            let past = URL(string: server.baseURL.absoluteString + "/api/species/?page=5")!
            #expect(await pageError(source, at: .url(past))
                == "\(past.absoluteString) answered HTTP 404 {\"detail\":\"Not found\"}.")
        }
    }

    @Test func aFailedPageCanBeRetried() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/api/species", replies: [.status(500), .text(#"{"count":1,"next":null,"results":[{"name":"Human"}]}"#)])
            let source = SWAPISource(baseURL: server.url("/api/"), imageSearchURL: nil)
            #expect(await pageError(source) == "\(server.url("/api/species/").absoluteString) answered HTTP 500.")
            let retried = try await source.page(at: source.firstPage)
            #expect(retried.items.map(\.title) == ["Human"])
        }
    }

    @Test func lookupsWithoutAnImageOrWithAnEmptyBodyLeaveTheRowWithoutAPictureAndSayWhy() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/api/species", .text(#"{"count":4,"next":null,"results":[{"name":"Human"},{"name":"Droid"},{"name":"Hutt"},{"name":"Ewok"}]}"#))
            server.serve("/ia") { request in
                switch request.query["q"] {
                case "Human star wars": .text(#"{"Heading":"Human","Image":"","AbstractSource":"Wikipedia"}"#)
                case "Droid star wars": .ok([])
                case "Hutt star wars": .text("<html>rate limited</html>")
                default: .status(503)
                }
            }
            let source = SWAPISource(baseURL: server.url("/api/"), imageSearchURL: server.url("/ia/"))
            let items = try await source.page(at: source.firstPage).items
            #expect(items.map(\.title) == ["Human", "Droid", "Hutt", "Ewok"], "the page loads, in order")
            #expect(items.allSatisfy { $0.imageURL == nil })
            let ia = server.url("/ia/").absoluteString
            #expect(field(items[0], "Image") == #"none: the Instant Answer for "Human star wars" has no image ("Image" is empty)"#)
            #expect(field(items[1], "Image")
                == "none: \(ia)?q=Droid%20star%20wars&format=json answered an empty body (no Instant Answer for \"Droid star wars\")")
            #expect(field(items[2], "Image")
                == "lookup failed: the image lookup \(ia)?q=Hutt%20star%20wars&format=json did not answer with JSON "
                + "(expected a value, found '<' at byte 0): <html>rate limited</html>")
            #expect(field(items[3], "Image")
                == "lookup failed: \(ia)?q=Ewok%20star%20wars&format=json answered HTTP 503.")
        }
    }
}

@Suite struct DemoServerFaultTests {
    @Test func injectedFaultsReachTheUserAsAnErrorNamingThePage() async throws {
        try await withDemoServer(.init(failRate: 1, seed: 5)) { server in
            let source = SWAPISource(baseURL: server.apiURL, imageSearchURL: nil)
            let page = server.baseURL.absoluteString + "/api/species/"
            // Every URL fails its first request: with a 500 and the server's detail, or with the connection cut
            // mid-body.
            let message = try #require(await pageError(source))
            // The source says what failed; the table adds how to retry, once.
            #expect(!message.contains("Press r"), "\(message)")
            #expect(message == "\(page) answered HTTP 500 {\"detail\":\"demo server: injected failure (--fail-rate)\"}."
                || message.hasPrefix("cannot load \(page): "), "\(message)")
            // A failing page fails once: the retry (r on the failed page's row) loads it.
            #expect(await pageError(source) == nil)
        }
    }

    @Test func aFailedLookupIsToldFromNoImageOnTheItem() async throws {
        // Every URL fails its first request, so each species' lookup fails and the page (asked twice) loads.
        try await withDemoServer(.init(failRate: 1, seed: 5)) { server in
            let source = SWAPISource(baseURL: server.apiURL, imageSearchURL: server.instantAnswerURL)
            _ = await pageError(source)
            let items = try await source.page(at: source.firstPage).items
            #expect(items.count == 10)
            #expect(items.allSatisfy { $0.imageURL == nil && $0.imageLookupFailure != nil })
            let human = try #require(items.first)
            #expect(human.imageLookupFailure?.contains("/ia/?q=Human%20star%20wars") == true, "\(human)")
            // The lookup answers the second time: the row gets its numbered picture, and no failure.
            let refreshed = try #require(await source.refreshImage(of: human))
            #expect(refreshed.imageLookupFailure == nil)
            #expect(refreshed.imageURL?.absoluteString.hasSuffix("/media/chelsea.png?row=1") == true,
                    "\(String(describing: refreshed.imageURL))")
        }
    }

    @Test func aFailedLookupIsAskedAgainOnRetryAndTheRowGetsItsPicture() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/api/species", .text(#"{"count":1,"next":null,"results":[{"name":"Ewok"}]}"#))
            server.serve("/ia", replies: [
                .status(503), .text(#"{"Heading":"Ewok","Image":"/i/ewok.png","AbstractSource":"Wookieepedia","AbstractURL":"https://starwars.fandom.com/wiki/Ewok"}"#),
            ])
            let source = SWAPISource(baseURL: server.url("/api/"), imageSearchURL: server.url("/ia/"))
            let failed = try #require(try await source.page(at: source.firstPage).items.first)
            #expect(failed.imageURL == nil)
            #expect(field(failed, "Image")?.hasPrefix("lookup failed: ") == true)
            #expect(failed.imageLookupFailure?.hasSuffix("answered HTTP 503.") == true)
            let refreshed = try #require(await source.refreshImage(of: failed))
            #expect(refreshed.imageURL == server.url("/i/ewok.png"))
            #expect(refreshed.attribution == "Image from https://starwars.fandom.com/wiki/Ewok Wookieepedia")
            #expect(refreshed.allFields.filter { $0.label == "Image" }.count == 1, "the old reason is replaced, not kept")
        }
    }
}
