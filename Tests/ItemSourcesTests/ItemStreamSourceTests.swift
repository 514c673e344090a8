import Foundation
import Items
@testable import ItemSources
import LocalFiles
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real pipe, written by the test while the source reads the other end on its own thread.
final class TestPipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    func write(_ bytes: [UInt8]) {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(writeEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            written += count
        }
    }

    func write(_ text: String) { write(Array(text.utf8)) }

    func closeWriting() { close(writeEnd) }

    deinit {
        close(readEnd)
    }
}

/// Items read from a pipe: rows that arrive before the input ends, the count so far and in all, a row for each kind
/// of bad line, JSON lines and a JSON document.
@Suite(.timeLimit(.minutes(3))) struct ItemStreamSourceTests {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-stream-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// Reads pages from `start` on until the source says there are no more.
    static func rest(of source: ItemStreamSource, from start: Int) async throws -> [Item] {
        var items: [Item] = []
        var cursor: PageCursor? = .offset(start)
        while let next = cursor {
            let page = try await source.page(at: next)
            items += page.items
            cursor = page.next
        }
        return items
    }

    @Test func rowsArriveBeforeTheInputEndsWithTheCountSoFarThenTheCountInAll() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipe = TestPipe()
        let source = try ItemStreamSource(reading: pipe.readEnd, pageSize: 10)
        pipe.write("https://example.com/a.png\nhttps://example.com/b.png\n")
        let first = try await source.page(at: source.firstPage)
        #expect(first.items.map(\.title) == ["https://example.com/a.png", "https://example.com/b.png"])
        #expect(first.stillCounting && first.totalCount == 2 && first.next == .offset(2))
        #expect(source.countSoFar() == ItemCount(total: 2, stillCounting: true))

        // The next page waits for the next line, which comes in two writes.
        pipe.write("https://example.com/")
        async let second = source.page(at: .offset(2))
        pipe.write("c.png\n")
        #expect(try await second.items.map(\.title) == ["https://example.com/c.png"])

        pipe.write("https://example.com/d.png")
        pipe.closeWriting()
        let last = try await Self.rest(of: source, from: 3)
        #expect(last.map(\.title) == ["https://example.com/d.png"])
        await source.ended()
        #expect(source.countSoFar() == ItemCount(total: 4, stillCounting: false))
    }

    @Test func eachLineIsAFileAnImageLinkOrARowSayingWhyItIsNeither() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let image = folder + "/photo.png"
        #expect(FileManager.default.createFile(atPath: image, contents: Data([0x89, 0x50, 0x4E, 0x47])))
        let pipe = TestPipe()
        let source = try ItemStreamSource(reading: pipe.readEnd)
        pipe.write("\(image)\n\nHTTPS://Example.com/x.jpg\nftp://example.com/y.jpg\n\(folder)/missing.jpg\n"
                   + "https://\n\(folder)\n")
        pipe.write([0x61, 0x00, 0x62, 0x0A])
        pipe.closeWriting()
        let items = try await Self.rest(of: source, from: 0)
        #expect(items.count == 7, "the empty line is the only one skipped")
        guard items.count == 7 else { return }
        #expect(items[0].imageURL.flatMap(LocalPath.init(fileURL:)) == LocalPath(image))
        #expect(items[0].title == image && items[0].inputLine == Array(image.utf8))
        #expect(items[1].imageURL?.absoluteString == "HTTPS://Example.com/x.jpg" && items[1].subtitle == "Example.com")
        #expect(items[2].imageURL == nil && items[2].subtitle.hasPrefix("line 4: neither an existing file nor an"))
        #expect(items[3].imageURL == nil && items[3].subtitle.hasSuffix("/missing.jpg does not exist)"))
        #expect(items[4].imageURL == nil && items[4].subtitle.hasPrefix("line 6: the link \"https://\" "))
        #expect(items[5].imageURL == nil && items[5].subtitle == "not a regular file (a folder)", "\(items[5])")
        #expect(items[6].subtitle == "line 8: not a file path: it holds a NUL byte")
        #expect(items[6].inputLine == [0x61, 0x00, 0x62])
        #expect(Set(items.map(\.id)).count == items.count, "every row has an id of its own")
        #expect(source.origin == .local, "a line's path is the user's own file")
    }

    @Test func aPathThatIsNotUTF8KeepsItsBytesAndIsShownWithReplacementCharacters() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = Array((folder + "/caf").utf8) + [0xE9] + Array(".png".utf8)
        let fd = LocalPath(bytes: path).withCString { open($0, O_CREAT | O_WRONLY, 0o644) }
        #expect(fd >= 0)
        close(fd)
        let pipe = TestPipe()
        let source = try ItemStreamSource(reading: pipe.readEnd)
        pipe.write(path + [0x0A])
        pipe.closeWriting()
        let items = try await Self.rest(of: source, from: 0)
        #expect(items.map(\.inputLine) == [path])
        #expect(items.first?.title == folder + "/caf\u{FFFD}.png")
        #expect(items.first?.imageURL.flatMap(LocalPath.init(fileURL:))?.bytes == path, "the file is opened by its bytes")
    }

    @Test func aLineOverTheCeilingIsARowWithItsLengthAndTheLinesAfterItAreKept() async throws {
        let pipe = TestPipe()
        let source = try ItemStreamSource(reading: pipe.readEnd, lineCeiling: 64)
        let writer = Task.detached {
            pipe.write([UInt8](repeating: 0x41, count: 10 << 20))
            pipe.write("\nhttps://example.com/after.png\n")
            pipe.closeWriting()
        }
        let items = try await Self.rest(of: source, from: 0)
        await writer.value
        #expect(items.map(\.subtitle).first == "line 1: line 1 is 10485760 bytes long, more than the 64 bytes a line may have")
        #expect(items.first?.inputLine == nil)
        #expect(items.last?.title == "https://example.com/after.png" && items.count == 2)
    }

    @Test func jsonLinesAreReadByKeyPathsAndLinesThatAreNotJSONAreSkippedAndCounted() async throws {
        let pipe = TestPipe()
        let keys = JSONAPISource.KeyPaths(items: "", title: "name", subtitle: "kind", image: "media.m")
        let source = try ItemStreamSource(reading: pipe.readEnd, format: .jsonLines(keys))
        let lines = [#"{"name": "Ada", "kind": "cat", "media": {"m": "https://example.com/ada.jpg"}}"#,
                     #"{"name": "Bo", "media": {"m": "file:///etc/passwd"}}"#,
                     "not json {", #"{"name": "Cy"}"#, "\u{1B}[2J garbage"]
        pipe.write(lines.joined(separator: "\n"))
        pipe.closeWriting()
        await source.ended()
        let page = try await source.page(at: source.firstPage)
        let items = page.items
        #expect(items.map(\.title) == ["Ada", "Bo", "Cy"])
        #expect(items[0].imageURL?.absoluteString == "https://example.com/ada.jpg" && items[0].subtitle == "cat")
        #expect(items[1].imageURL == nil && items[1].fields.contains { $0.link == .refused }, "a file: link is refused")
        #expect(items[2].id == "stdin:4", "a row keeps its line's number")
        #expect(items.map(\.inputLine) == [lines[0], lines[1], lines[3]].map { Array($0.utf8) })
        #expect(page.totalCount == 3 && page.next == nil)
        #expect(page.notes == ["2 lines not JSON, skipped"] && source.notJSONLines == 2)
        #expect(source.origin == .remote)
    }

    @Test func anInputOfOnlyLinesThatAreNotJSONHasNoItemsAndSaysWhy() async throws {
        let pipe = TestPipe()
        let source = try ItemStreamSource(reading: pipe.readEnd, format: .jsonLines(.init(items: "", title: "t")))
        pipe.write("plain text\n")
        pipe.closeWriting()
        let page = try await source.page(at: source.firstPage)
        #expect(page.items.isEmpty && page.next == nil)
        #expect(page.notes == ["stdin had no items: it was empty, or had only empty lines", "1 line not JSON, skipped"])
    }

    @Test func aJSONDocumentGivesTheListAtItsItemsKeyPathWhenItEnds() async throws {
        let pipe = TestPipe()
        let keys = JSONAPISource.KeyPaths(items: "data.results", title: "name", image: "url")
        let source = try ItemStreamSource(reading: pipe.readEnd, format: .jsonDocument(keys))
        pipe.write(#"{"data": {"results": [{"name": "A", "url": "https://example.com/a.png"},"#)
        pipe.write(#" {"name": "B"}]}}"#)
        pipe.closeWriting()
        let items = try await Self.rest(of: source, from: 0)
        #expect(items.map(\.title) == ["A", "B"])
        #expect(items.first?.imageURL?.absoluteString == "https://example.com/a.png")

        let bad = TestPipe()
        let broken = try ItemStreamSource(reading: bad.readEnd, format: .jsonDocument(keys))
        bad.write(#"{"data": []}"#)
        bad.closeWriting()
        let problem = try await Self.rest(of: broken, from: 0)
        #expect(problem.map(\.subtitle) == [#"the JSON document has no "data.results" (the --items key path)"#])

        let garbage = TestPipe()
        let notJSON = try ItemStreamSource(reading: garbage.readEnd, format: .jsonDocument(keys))
        garbage.write([0x7B, 0x00, 0xFF, 0x0A])
        garbage.closeWriting()
        let unread = try await Self.rest(of: notJSON, from: 0)
        #expect(unread.count == 1 && unread.first?.subtitle.hasPrefix("the input is not JSON (") == true,
                "\(unread.map(\.subtitle))")
        #expect(unread.first?.title == "(stdin)")
    }

    @Test func anInputClosedAtOnceIsAnEmptyListWithANote() async throws {
        let pipe = TestPipe()
        let source = try ItemStreamSource(reading: pipe.readEnd)
        pipe.write("\n\n")
        pipe.closeWriting()
        let page = try await source.page(at: source.firstPage)
        #expect(page.items.isEmpty && page.next == nil && page.totalCount == 0)
        #expect(page.notes == ["stdin had no items: it was empty, or had only empty lines"])
    }
}
