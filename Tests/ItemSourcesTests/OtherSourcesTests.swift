import DemoServer
import Foundation
import Items
@testable import ItemSources
import LocalFiles
import TestSupport
import Testing

@Suite struct PhotosSourceTests {
    @Test func followsTheLinkHeaderThroughTheDemoServersPhotos() async throws {
        try await withDemoServer { server in
            let source = PhotosSource(baseURL: server.baseURL, limit: 20)
            let first = try await source.page(at: source.firstPage)
            #expect(first.items.count == 20 && first.totalCount == 5000)
            let photo = first.items[0]
            #expect(photo.title == "accusamus beatae ad facilis cum similique qui sunt")
            #expect(photo.subtitle == "photo 1 · album 1")
            let base = server.baseURL.absoluteString
            #expect(photo.thumbnailURL?.absoluteString == base + "/placeholder/150/92c952/1", "rows show thumbnailUrl")
            #expect(photo.imageURL?.absoluteString == base + "/placeholder/600/92c952/1", "the detail pane shows url")
            #expect(photo.attribution == "Image from 127.0.0.1")
            #expect(first.next == .url(URL(string: base + "/photos?_page=2&_limit=20")!))
            let second = try await source.page(at: try #require(first.next))
            #expect(second.items.first?.title == "ad et natus qui")
            let last = try await source.page(at: .url(URL(string: base + "/photos?_page=250&_limit=20")!))
            #expect(last.next == nil && last.items.last?.id == "photo-5000")
        }
    }

    @Test func withoutALinkHeaderFullPagesCountOn() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/photos", reply: { request in
                let page = Int(request.query["_page"] ?? "") ?? 0
                let records = page <= 2 ? (1...2).map { #"{"id":\#(page * 10 + $0),"title":"t\#($0)","albumId":1}"# } : []
                return .text("[" + records.joined(separator: ",") + "]")
            })
            let source = PhotosSource(baseURL: server.url("/"), limit: 2)
            let first = try await source.page(at: source.firstPage)
            #expect(first.next == .number(2))
            let items = try await source.page(at: .number(2)).items
            #expect(items.map(\.id) == ["photo-21", "photo-22"])
            // json-server answers [] past the end: without a Link header that is the one signal, and it is named.
            #expect(await pageError(source, at: .number(3))
                == "\(server.url("/photos").absoluteString)?_page=3&_limit=2 answered an empty list: no photos on this page")
        }
    }

    @Test func badRecordsAreNamed() async throws {
        try await TestHTTPServer.with { server in
            let url = server.url("/photos").absoluteString + "?_page=1&_limit=20"
            let source = PhotosSource(baseURL: server.url("/"))
            server.serve("/photos", .text(#"{"photos": []}"#))
            #expect(await pageError(source) == "\(url) answered an object, not a list of photos")
            server.serve("/photos", .text(#"[{"id": "one", "title": "x"}]"#))
            #expect(await pageError(source) == "photo 1 in \(url) has text as \"id\", not a number")
            server.serve("/photos", .text(#"[{"id": 1}]"#))
            #expect(await pageError(source) == "photo 1 in \(url) has no \"title\"")
        }
    }

    @Test func linkHeadersAreParsedByRelation() {
        let header = #"<http://h/photos?_page=1>; rel="first", <http://h/photos?_page=3>; rel="next", </p?_page=9>; rel="last""#
        #expect(PhotosSource.link("next", in: header) == "http://h/photos?_page=3")
        #expect(PhotosSource.link("last", in: header) == "/p?_page=9")
        #expect(PhotosSource.link("prev", in: header) == nil)
    }
}

@Suite struct JSONAPISourceTests {
    @Test func anUnknownKeyPathIsNamed() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/things", .text(#"{"data": {"children": []}}"#))
            let source = JSONAPISource(url: server.url("/things"), keyPaths: .init(items: "data.items", title: "name"))
            #expect(await pageError(source)
                == "\(server.url("/things").absoluteString) has no \"data.items\" (the --items key path)")
        }
    }

    @Test func dottedKeyPathsReachIntoNestedObjectsAndArrays() {
        let json: Any = ["a": ["b": [["c": "deep"], ["c": 5]]]]
        #expect(JSONAPISource.value(at: "a.b.0.c", in: json) as? String == "deep")
        #expect(JSONAPISource.value(at: "a.b.1.c", in: json) as? Int == 5)
        #expect(JSONAPISource.value(at: "a.x", in: json) == nil)
        #expect(JSONAPISource.value(at: "", in: json) is [String: Any])
    }

    @Test func theFlickrPresetReadsAFeedShapedPage() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/feed", .text(#"{"title":"Uploads","items":[{"title":"Sunset","link":"/photos/ann/1/","author":"nobody@flickr.com (\"ann\")","media":{"m":"/m/1_m.jpg"}}]}"#))
            let source = JSONAPISource(url: server.url("/feed"), keyPaths: JSONAPISource.flickrFeed)
            let page = try await source.page(at: source.firstPage)
            #expect(page.items.map(\.title) == ["Sunset"])
            #expect(page.items[0].imageURL == server.url("/m/1_m.jpg"), "relative URLs resolve against the page")
            #expect(page.items[0].fields.filter { $0.link == .page }.map(\.value)
                    == [server.url("/photos/ann/1/").absoluteString], "the photo's page, for o and y")
            #expect(page.next == nil)
        }
    }
}

@Suite struct FolderSourceTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-folder-\(UUID().uuidString)")
        let photos = demoData.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for (name, target) in [("b-coffee.png", "coffee.png"), ("a-rocket.JPG", "rocket.jpg"),
                               ("sub/c-horse.png", "horse.png"), ("broken.png", "broken.png")] {
            try FileManager.default.copyItem(at: photos.appendingPathComponent(target),
                                            to: folder.appendingPathComponent(name))
        }
        try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try Data().write(to: folder.appendingPathComponent(".hidden.png"))
    }

    @Test func listsTheImagesSortedByNameWithTheirDetails() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try FolderSource(directory: folder)
        let first = try await source.page(at: source.firstPage)
        #expect(first.totalCount == 3 && !first.stillCounting && first.next == nil, "one folder is read whole")
        #expect(first.notes == ["1 subfolder not shown: --recursive lists the images below too"],
                "the folder left out is said (the hidden .png is no folder)")
        let items = try await allItems(of: source)
        #expect(items.map(\.title) == ["a-rocket.JPG", "b-coffee.png", "broken.png"])
        let coffee = items[1]
        #expect(coffee.imageURL.flatMap(LocalPath.init(fileURL:)) == LocalPath(folder.path + "/b-coffee.png"))
        #expect(field(coffee, "Size") == "455.8 KB")
        #expect(field(coffee, "Pixel dimensions") == "600 x 400")
        #expect(field(coffee, "Format") == "PNG")
        #expect(field(coffee, "Modified")?.count == 19)
        #expect(field(items[0], "Pixel dimensions") == "640 x 427" && field(items[0], "Format") == "JPEG")
        #expect(field(items[2], "Format") == "not a JPEG, PNG, GIF, WebP, HEIF, AVIF or JPEG XL the header says")
        #expect(coffee.subtitle == "PNG · 600x400 · 455.8 KB")
    }

    @Test func recursiveLooksInTheFoldersBelow() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try FolderSource(directory: folder, recursive: true, pageSize: 2)
        #expect(try await source.page(at: source.firstPage).notes.isEmpty, "nothing is left out")
        let items = try await allItems(of: source)
        #expect(items.map(\.title) == ["a-rocket.JPG", "b-coffee.png", "broken.png", "sub/c-horse.png"])
        #expect(field(items[3], "Pixel dimensions") == "400 x 328")
    }

    @Test func aFolderWithoutImagesAndAMissingFolderAreNamed() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("sub/empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let source = try FolderSource(directory: empty)
        let page = try await source.page(at: source.firstPage)
        #expect(page.items.isEmpty && page.next == nil)
        #expect(page.notes == ["\(empty.path) is empty: it has no images (.jpg, .jpeg, .png, .gif, "
            + ".webp, .heic, .heif, .avif, .jxl); --recursive also looks in the folders below it"])
        #expect(throws: ItemSourceError("\(folder.path)/nothing does not exist")) {
            try FolderSource(directory: folder.appendingPathComponent("nothing"))
        }
    }
}
