import Foundation
import Items
@testable import ItemSources
import TestSupport
import Testing

/// Remote pages that point at local files, carry bad UTF-8, or are huge: the rows that can be read are kept, no
/// local file is ever named by a row, and what was left out is said.
@Suite struct HostileJSONTests {
    @Test func fileLinksFromAServerAreRefusedAndTheRestOfThePageKept() async throws {
        let server = try await TestHTTPServer.start()
        server.serve("/things", .text("""
            {"items": [
              {"name": "passwd", "image": "file:///etc/passwd", "thumb": "FILE:/dev/tty"},
              {"name": "relative", "image": "/img/1.png"},
              {"name": "other", "image": "gopher://h/x", "thumb": "//evil.example/t.png"},
              {"name": "data", "image": "data:image/png;base64,AAAA"}
            ], "next": "file:///etc/shadow"}
            """))
        let source = JSONAPISource(url: server.url("/things"), keyPaths: .init(items: "items", title: "name",
                                                                               image: "image", thumbnail: "thumb", next: "next"))
        let result = try await source.page(at: source.firstPage)
        #expect(result.items.map(\.title) == ["passwd", "relative", "other", "data"])
        let urls = result.items.flatMap { [$0.imageURL, $0.thumbnailURL].compactMap(\.self) }
        #expect(urls.allSatisfy { ["http", "https"].contains($0.scheme) }, "\(urls)")
        #expect(result.items[1].imageURL == URL(string: server.url("/img/1.png").absoluteString))
        #expect(result.items[2].thumbnailURL?.absoluteString == "http://evil.example/t.png")
        #expect(result.items[0].fields.filter { $0.label == "Link refused" }.count == 2)
        #expect(result.next == nil)
        #expect(result.notes.contains { $0.hasPrefix("the list stops here: the next page's link \"file:///etc/shadow\" was refused") },
                "\(result.notes)")
        #expect(!result.notes.contains { $0.contains("file:///etc/passwd") }, "an item's note is not the page's")
        #expect(result.itemNotes.map(\.index) == [0, 2, 3], "each refusal names its item's place in the page")
        #expect(result.itemNotes.first?.text.contains("file:///etc/passwd") == true, "\(result.itemNotes)")
    }

    @Test func photosAndInstantAnswersRefuseFileLinksToo() async throws {
        let server = try await TestHTTPServer.start()
        server.serve("/photos", .ok(Array(#"[{"id": 1, "title": "t", "url": "file:///etc/passwd", "thumbnailUrl": "/t/1.png"}]"#.utf8),
                                    headers: ["Link": "<file:///etc/hosts>; rel=\"next\""]))
        let photos = PhotosSource(baseURL: server.url("/"), limit: 1)
        let page = try await photos.page(at: .url(server.url("/photos")))
        #expect(page.items.first?.imageURL == nil)
        #expect(page.items.first?.thumbnailURL?.scheme == "http")
        #expect(page.next == nil)
        #expect(page.notes.count == 1 && page.itemNotes.count == 1, "\(page.notes) \(page.itemNotes)")

        let answer = InstantAnswerLookup.parse(Array(#"{"Image": "file:///dev/tty"}"#.utf8), query: "q",
                                               url: server.url("/ia"), imageBase: server.url("/"))
        let value = try answer.get()
        #expect(value.image == nil)
        #expect(value.noImageReason?.contains("a remote page may only link to http and https") == true)
    }

    @Test func manyRefusedPhotosAreCountedAndTheRefusedNextLinkIsNotCrowdedOut() throws {
        let records: Any = (1...4).map { ["id": $0, "title": "t\($0)", "url": "file:///etc/passwd"] as [String: Any] }
        let page = try PhotosSource.parsePage(records, url: URL(string: "http://h/photos?_page=1")!,
                                              linkHeader: "<file:///etc/hosts>; rel=\"next\"", totalHeader: nil, limit: 4)
        #expect(page.items.count == 4 && page.next == nil)
        #expect(page.notes.count == 1 && page.notes.first?.contains("file:///etc/hosts") == true, "\(page.notes)")
        #expect(page.itemNotes.map(\.index) == [0, 1, 2, 3], "every refusal is kept, for the list to count")
    }

    @Test func aSWAPIPageWithAFileNextLinkKeepsItsRows() throws {
        let json: Any = ["count": 2, "next": "file:///etc/passwd", "results": [["name": "Human"], ["name": "Droid"]]]
        let page = try SWAPISource.parsePage(json, url: URL(string: "http://h/api/species/")!)
        #expect(page.items.map(\.title) == ["Human", "Droid"])
        #expect(page.next == nil)
        #expect(page.notes.first?.contains("file:///etc/passwd") == true)
    }

    @Test func oneInvalidUTF8ByteKeepsThePageAndIsMarked() async throws {
        let server = try await TestHTTPServer.start()
        var body = Array(#"[{"id": 1, "title": "caf"#.utf8) + [0xE9] + Array(#"", "thumbnailUrl": "/t.png"},"#.utf8)
        body += Array(#"{"id": 2, "title": "fine", "thumbnailUrl": "/u.png"}]"#.utf8)
        server.serve("/photos", .ok(body, contentType: "application/json"))
        let photos = PhotosSource(baseURL: server.url("/"), limit: 10)
        let page = try await photos.page(at: .url(server.url("/photos")))
        #expect(page.items.map(\.title) == ["caf\u{FFFD}", "fine"])
        #expect(page.notes.contains { $0.hasSuffix("1 byte sequence that is not UTF-8 replaced by \u{FFFD}") }, "\(page.notes)")
    }
}
