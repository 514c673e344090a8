import Foundation
import Items
@testable import ItemSources
import LocalFiles
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A folder with entries that are not regular files, and names that are not UTF-8: listed, never opened.
@Suite struct HostileFolderTests {
    let folder: LocalPath

    init() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tt-hostile-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        folder = LocalPath(path)
        let png = try Data(contentsOf: demoData.appendingPathComponent("photos/horse.png"))
        try png.write(to: URL(fileURLWithPath: path + "/b-horse.png"))
        #expect(folder.appending(Array("a-fifo.jpg".utf8)).withCString { mkfifo($0, 0o644) } == 0)
        #expect(symlink("/dev/tty", path + "/c-tty.png") == 0)
        #expect(symlink("/dev/zero", path + "/d-zero.gif") == 0)
        let latin1 = folder.appending(Array("e-caf".utf8) + [0xE9] + Array(".png".utf8))
        let fd = latin1.withCString { open($0, O_WRONLY | O_CREAT, 0o644) }
        #expect(fd >= 0)
        png.withUnsafeBytes { _ = write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    @Test func everyEntryIsListedAndOnlyRegularFilesHaveAnImage() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder.description) }
        let source = try FolderSource(path: folder)
        // Listing and reading the page must not block on the FIFO or the terminal: this returns.
        let page = try await source.page(at: source.firstPage)
        #expect(page.items.map(\.title) == ["a-fifo.jpg", "b-horse.png", "c-tty.png", "d-zero.gif", "e-caf\\xE9.png"])
        let byTitle = Dictionary(uniqueKeysWithValues: page.items.map { ($0.title, $0) })
        for name in ["a-fifo.jpg", "c-tty.png", "d-zero.gif"] {
            let item = try #require(byTitle[name])
            #expect(item.imageURL == nil, "\(name)")
            #expect(item.subtitle.hasPrefix("not a regular file"), "\(name): \(item.subtitle)")
        }
        #expect(byTitle["a-fifo.jpg"]?.subtitle == "not a regular file (a FIFO (named pipe))")
        let latin1 = try #require(byTitle["e-caf\\xE9.png"])
        #expect(latin1.subtitle == "PNG · 400x328 · 16.2 KB")
        // The row's image URL opens the file by its real bytes.
        let path = try #require(latin1.imageURL.flatMap(LocalPath.init(fileURL:)))
        #expect(path.lastComponent == Array("e-caf".utf8) + [0xE9] + Array(".png".utf8))
        #expect(try LocalFile.read(path, limit: 1 << 20).count == 16_633)
        #expect(source.origin == .local)
    }
}
