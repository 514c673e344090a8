import Foundation
import Pipeline
import Testing

/// The disk cache in a temporary folder: what it keeps, what it refuses to return, and what it sweeps.
@Suite final class DiskCacheTests {
    let directory: URL
    let url = URL(string: "https://example.com/images/a.png")!
    let data = LoadedData(bytes: (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }, contentType: "image/png",
                          etag: "\"abc\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT")

    init() {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("DiskCacheTests-\(UUID().uuidString)", isDirectory: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Keeping

    @Test func anEntryComesBackWithItsMetadata() throws {
        let cache = try DiskCache(directory: directory)

        #expect(cache.store(data, for: url) == nil)
        let entry = try #require(cache.entry(for: url))

        #expect(entry.bytes == data.bytes)
        #expect(entry.loadedData == data)
        #expect(entry.metadata.url == url.absoluteString)
        #expect(entry.metadata.byteCount == data.bytes.count)
        #expect(entry.metadata.sha256 == sha256sum(data.bytes))
        #expect(abs(entry.metadata.storedAt.timeIntervalSinceNow) < 3600)
    }

    @Test func anEntrySurvivesARestart() throws {
        try DiskCache(directory: directory).store(data, for: url)

        let reopened = try DiskCache(directory: directory)

        #expect(reopened.entry(for: url)?.loadedData == data)
        #expect(reopened.entry(for: url)?.metadata.etag == data.etag)
    }

    @Test func aMissingEntryIsNil() throws {
        let cache = try DiskCache(directory: directory)
        #expect(cache.entry(for: url) == nil)
    }

    @Test func fileNamesAreTheSHA256OfTheURL() throws {
        // printf %s https://example.com/images/a.png | sha256sum
        let expected = "44c4e5e0205de590b90b0e4733a668678deb4a27d3476c101fc0bc67a36d5da3"
        #expect(DiskCache.key(for: url) == expected)

        let cache = try DiskCache(directory: directory)
        cache.store(data, for: url)

        #expect(try fileNames() == [expected + ".entry"])
        #expect(cache.fileURL(for: url).lastPathComponent == expected + ".entry")
    }

    @Test func aNewerStoreReplacesTheEntry() throws {
        let cache = try DiskCache(directory: directory)
        cache.store(data, for: url)
        let newer = LoadedData(bytes: [1, 2, 3], contentType: "image/gif", etag: "\"v2\"")

        cache.store(newer, for: url)

        #expect(cache.entry(for: url)?.loadedData == newer)
        #expect(cache.entry(for: url)?.metadata.contentType == "image/gif")
        #expect(cache.stats().entries == 1)
    }

    // MARK: Refusing what does not check out

    @Test(arguments: Corruption.allCases)
    func aCorruptEntryIsDeletedNotReturned(_ corruption: Corruption) throws {
        let cache = try DiskCache(directory: directory)
        cache.store(data, for: url)
        let file = cache.fileURL(for: url)
        var bytes = [UInt8](try Data(contentsOf: file))

        switch corruption {
        case .truncated:
            bytes.removeLast(100)
        case .garbage:
            var random = SystemRandomNumberGenerator()
            bytes = (0..<bytes.count).map { _ in UInt8.random(in: 0...255, using: &random) }
        case .checksumMismatch:
            bytes[bytes.count - 10] ^= 0xFF
        case .headerOnly:
            bytes = Array(bytes.prefix(10))
        case .empty:
            bytes = []
        }
        try Data(bytes).write(to: file)

        #expect(cache.entry(for: url) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path), "the corrupt file is deleted")
    }

    enum Corruption: CaseIterable, Sendable {
        case truncated, garbage, checksumMismatch, headerOnly, empty
    }

    @Test func anotherURLsEntryUnderThisNameIsDeletedNotReturned() throws {
        let cache = try DiskCache(directory: directory)
        let other = URL(string: "https://example.com/images/b.png")!
        cache.store(data, for: other)
        try FileManager.default.moveItem(at: cache.fileURL(for: other), to: cache.fileURL(for: url))

        #expect(cache.entry(for: url) == nil)
        #expect(!FileManager.default.fileExists(atPath: cache.fileURL(for: url).path))
    }

    // MARK: Sweeping

    @Test func passingTheLimitDeletesTheLeastRecentlyUsedEntriesFirst() throws {
        let urls = ["a", "b", "c", "d"].map { URL(string: "https://example.com/images/\($0).png")! }
        let fileSize = try entryFileSize()
        // Room for three and a half entries: the fourth passes the limit, and the sweep (down to 90 %) deletes one.
        let cache = try DiskCache(directory: directory, sizeLimit: fileSize * 7 / 2)
        for url in urls.prefix(3) { cache.store(data, for: url) }
        let now = Date()
        try setLastUse(of: cache.fileURL(for: urls[0]), to: now - 100)
        try setLastUse(of: cache.fileURL(for: urls[1]), to: now - 300) // the least recently used
        try setLastUse(of: cache.fileURL(for: urls[2]), to: now - 200)

        cache.store(data, for: urls[3])
        cache.waitForTrims()

        #expect(cache.entry(for: urls[1]) == nil)
        for url in [urls[0], urls[2], urls[3]] { #expect(cache.entry(for: url) != nil, "\(url)") }
        #expect(cache.stats().bytes <= cache.sizeLimit)
    }

    @Test func aHitCountsAsUse() throws {
        let urls = ["a", "b", "c", "d"].map { URL(string: "https://example.com/images/\($0).png")! }
        let cache = try DiskCache(directory: directory, sizeLimit: try entryFileSize() * 7 / 2)
        for url in urls.prefix(3) { cache.store(data, for: url) }
        let now = Date()
        try setLastUse(of: cache.fileURL(for: urls[0]), to: now - 300)
        try setLastUse(of: cache.fileURL(for: urls[1]), to: now - 200)
        try setLastUse(of: cache.fileURL(for: urls[2]), to: now - 100)

        #expect(cache.entry(for: urls[0]) != nil) // a is now the most recently used; b the least
        cache.store(data, for: urls[3])
        cache.waitForTrims()

        #expect(!FileManager.default.fileExists(atPath: cache.fileURL(for: urls[1]).path))
        #expect(FileManager.default.fileExists(atPath: cache.fileURL(for: urls[0]).path))
    }

    @Test func theLimitHoldsAcrossARestartWithEntriesAlreadyThere() throws {
        let fileSize = try entryFileSize()
        let urls = (0..<10).map { URL(string: "https://example.com/images/\($0).png")! }
        let big = try DiskCache(directory: directory)
        for (i, url) in urls.enumerated() {
            big.store(data, for: url)
            try setLastUse(of: big.fileURL(for: url), to: Date() - 1000 + Double(i))
        }

        let small = try DiskCache(directory: directory, sizeLimit: fileSize * 4)
        small.store(data, for: URL(string: "https://example.com/images/x.png")!)
        small.waitForTrims()

        #expect(small.stats().bytes <= fileSize * 4)
        #expect(small.entry(for: URL(string: "https://example.com/images/x.png")!) != nil, "the newest stays")
    }

    @Test func anEntryLargerThanTheWholeLimitIsNotKept() throws {
        let cache = try DiskCache(directory: directory, sizeLimit: 1_000)
        #expect(cache.store(data, for: url) == nil)
        #expect(cache.entry(for: url) == nil)
        #expect(try fileNames().isEmpty)
    }

    // MARK: Clearing and counting

    @Test func removeDeletesOneEntry() throws {
        let cache = try DiskCache(directory: directory)
        let other = URL(string: "https://example.com/images/b.png")!
        cache.store(data, for: url)
        cache.store(data, for: other)

        cache.remove(url)

        #expect(cache.entry(for: url) == nil)
        #expect(cache.entry(for: other) != nil)
    }

    @Test func removeAllDeletesEveryEntryAndNothingElse() throws {
        let cache = try DiskCache(directory: directory)
        for name in ["a", "b", "c"] {
            cache.store(data, for: URL(string: "https://example.com/\(name).png")!)
        }
        try Data("keep me".utf8).write(to: directory.appendingPathComponent("README"))

        cache.removeAll()

        #expect(cache.stats().entries == 0)
        #expect(cache.stats().bytes == 0)
        #expect(try fileNames() == ["README"])
    }

    @Test func statsCountEntriesAndTheirFiles() throws {
        let cache = try DiskCache(directory: directory, sizeLimit: 50 << 20)
        for name in ["a", "b", "c"] {
            cache.store(data, for: URL(string: "https://example.com/\(name).png")!)
        }

        let stats = cache.stats()

        let sizes = try fileNames().map { name in
            try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size]
                as? Int ?? -1
        }
        #expect(stats.entries == 3)
        #expect(stats.bytes == sizes.reduce(0, +))
        #expect(stats.bytes > 3 * data.bytes.count)
        #expect(stats.limit == 50 << 20)
        #expect(stats.directory.standardizedFileURL == directory.standardizedFileURL)
        #expect(stats.failedWrites == 0)
    }

    // MARK: Only the cache's own files

    /// Files a user may keep in the cache's folder, none of them the cache's: another name (`notes.entry`, an entry's
    /// name in capitals or one digit short), an entry's name on a file without the cache's header, a link named
    /// like an entry, a folder named like one, a file named like a temporary write but holding something else.
    enum Foreign: String, CaseIterable, Sendable {
        case notesEntry, thesisEntry, capitalHex, shortHex, entryNameWithoutHeader, linkNamedLikeAnEntry,
             folderNamedLikeAnEntry, temporaryNameWithoutHeader

        static let hex = String(repeating: "ab", count: 32)

        var name: String {
            switch self {
            case .notesEntry: "notes.entry"
            case .thesisEntry: "thesis.entry"
            case .capitalHex: Self.hex.uppercased() + ".entry"
            case .shortHex: String(Self.hex.dropLast()) + ".entry"
            case .entryNameWithoutHeader: String(repeating: "cd", count: 32) + ".entry"
            case .linkNamedLikeAnEntry: String(repeating: "ef", count: 32) + ".entry"
            case .folderNamedLikeAnEntry: String(repeating: "01", count: 32) + ".entry"
            case .temporaryNameWithoutHeader: "." + Self.hex + ".entry." + UUID().uuidString + ".tmp"
            }
        }

        /// Puts the file in `folder`, a day old (older than any entry, so the first a sweep would take); the link
        /// points at `target`, a user's file outside the folder.
        func make(in folder: URL, target: URL) throws -> URL {
            let file = folder.appendingPathComponent(name)
            switch self {
            case .linkNamedLikeAnEntry:
                try FileManager.default.createSymbolicLink(at: file, withDestinationURL: target)
            case .folderNamedLikeAnEntry:
                try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
            case .thesisEntry:
                try Data(repeating: 0x54, count: 3 << 20).write(to: file)
            default:
                try Data("my notes, not a cache entry\n".utf8).write(to: file)
            }
            if self != .linkNamedLikeAnEntry {
                try FileManager.default.setAttributes([.modificationDate: Date() - 86_400], ofItemAtPath: file.path)
            }
            return file
        }
    }

    /// A user's file outside the cache's folder, for links to point at.
    private func userFile() throws -> URL {
        let file = directory.deletingLastPathComponent().appendingPathComponent("user-\(UUID().uuidString).txt")
        try Data("the user's own file\n".utf8).write(to: file)
        return file
    }

    @Test(arguments: Foreign.allCases)
    func clearingDeletesTheEntriesAndLeavesAFileThatIsNotTheCaches(_ foreign: Foreign) throws {
        let cache = try DiskCache(directory: directory)
        for name in ["a", "b", "c"] { cache.store(data, for: URL(string: "https://example.com/\(name).png")!) }
        let target = try userFile()
        defer { try? FileManager.default.removeItem(at: target) }
        let file = try foreign.make(in: directory, target: target)
        let before = try? Data(contentsOf: file)

        let removed = cache.removeAll()

        #expect(removed.entries == 3)
        #expect(try fileNames() == [file.lastPathComponent], "only the entries are gone")
        #expect((try? Data(contentsOf: file)) == before, "\(foreign.name) is as it was")
        #expect(try Data(contentsOf: target) == Data("the user's own file\n".utf8))
        let stats = cache.stats()
        #expect(stats.entries == 0)
        #expect(stats.otherFiles == 1)
    }

    @Test(arguments: Foreign.allCases)
    func aTrimDeletesOnlyTheCachesOwnEntries(_ foreign: Foreign) throws {
        // The foreign file is the oldest thing in the folder, and the limit is passed by the first store.
        let fileSize = try entryFileSize()
        let target = try userFile()
        defer { try? FileManager.default.removeItem(at: target) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = try foreign.make(in: directory, target: target)
        let before = try? Data(contentsOf: file)
        let urls = (0..<6).map { URL(string: "https://example.com/images/\($0).png")! }
        let cache = try DiskCache(directory: directory, sizeLimit: fileSize * 4)

        for url in urls {
            cache.store(data, for: url)
            cache.waitForTrims()
        }

        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect((try? Data(contentsOf: file)) == before, "\(foreign.name) is as it was")
        #expect(try Data(contentsOf: target) == Data("the user's own file\n".utf8))
        let stats = cache.stats()
        #expect(stats.bytes <= fileSize * 4, "the entries were trimmed")
        #expect(stats.entries >= 3)
        #expect(cache.entry(for: urls[5]) != nil, "the newest stays")
        #expect(stats.otherFiles == 1)
    }

    @Test func statsCountWhatIsNotTheCachesApart() throws {
        let cache = try DiskCache(directory: directory)
        cache.store(data, for: url)
        let target = try userFile()
        defer { try? FileManager.default.removeItem(at: target) }
        for foreign in Foreign.allCases { _ = try foreign.make(in: directory, target: target) }

        let stats = cache.stats()

        #expect(stats.entries == 1)
        #expect(stats.bytes == (try entryFileSize()))
        #expect(stats.otherFiles == Foreign.allCases.count)
        #expect(stats.otherBytes >= 3 << 20, "thesis.entry's 3 MB are counted among the others")
    }

    // MARK: Trimming beside the work

    @Test func aStoreDoesNotWaitForTheTrim() throws {
        let fileSize = try entryFileSize()
        let urls = (0..<20).map { URL(string: "https://example.com/images/\($0).png")! }
        let full = try DiskCache(directory: directory)
        for url in urls { full.store(data, for: url) }
        full.waitForTrims()
        // The trims of this cache are held: a store that waited for one would never return.
        let trims = DispatchQueue(label: "held trims")
        trims.suspend()
        let cache = try DiskCache(directory: directory, sizeLimit: fileSize * 5, trimQueue: trims)
        let newest = URL(string: "https://example.com/images/new.png")!

        #expect(cache.store(data, for: newest) == nil)

        #expect(cache.entry(for: newest)?.loadedData == data, "the entry is there at once")
        #expect(try fileNames().count == 21, "nothing trimmed yet")
        trims.resume()
        cache.waitForTrims()
        #expect(cache.stats().bytes <= fileSize * 5, "the trim ran once let go")
        #expect(cache.entry(for: newest) != nil)
    }

    // MARK: Writing safely

    @Test func concurrentStoresOfOneURLLeaveOneWholeEntry() async throws {
        let cache = try DiskCache(directory: directory)
        let payloads = (0..<16).map { i in LoadedData(bytes: Array(repeating: UInt8(i), count: 50_000 + i)) }
        let url = url

        await withTaskGroup(of: Void.self) { group in
            for payload in payloads {
                group.addTask { cache.store(payload, for: url) }
            }
        }

        let entry = try #require(cache.entry(for: url))
        #expect(payloads.contains(entry.loadedData))
        #expect(try fileNames() == [DiskCache.key(for: url) + ".entry"], "one file and no temporary files left")
        #expect(cache.stats().entries == 1)
    }

    @Test func concurrentStoresAndReadsNeverSeeATornEntry() async throws {
        let cache = try DiskCache(directory: directory)
        let payloads = (0..<8).map { i in LoadedData(bytes: Array(repeating: UInt8(i), count: 200_000)) }
        let url = url
        cache.store(payloads[0], for: url)

        let misses = await withTaskGroup(of: Int.self) { group in
            for payload in payloads {
                group.addTask {
                    for _ in 0..<5 { cache.store(payload, for: url) }
                    return 0
                }
                group.addTask {
                    var misses = 0
                    for _ in 0..<5 {
                        if let entry = cache.entry(for: url) {
                            #expect(payloads.contains(entry.loadedData))
                        } else {
                            misses += 1
                        }
                    }
                    return misses
                }
            }
            return await group.reduce(0, +)
        }

        #expect(misses == 0, "a reader always finds the old entry or the new one")
        #expect(try fileNames() == [DiskCache.key(for: url) + ".entry"])
    }

    // MARK: Where and when it fails

    @Test func aFolderThatCannotBeCreatedIsAClearError() throws {
        let file = directory.appendingPathComponent("a-file")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data().write(to: file)

        let error = #expect(throws: DiskCache.Error.self) {
            try DiskCache(directory: file.appendingPathComponent("cache"))
        }
        guard case .unusableDirectory(let path, _) = error else {
            Issue.record("expected unusableDirectory, got \(String(describing: error))")
            return
        }
        #expect(path.hasSuffix("a-file/cache"))
        #expect(error?.description.contains("--cache-dir") == true)
    }

    @Test func aFailedWriteIsReportedAndCounted() throws {
        let cache = try DiskCache(directory: directory)
        try FileManager.default.removeItem(at: directory) // as a full or vanished disk would

        let failure = cache.store(data, for: url)

        guard case .writeFailed(let path, let reason) = failure else {
            Issue.record("expected writeFailed, got \(String(describing: failure))")
            return
        }
        #expect(path == directory.standardizedFileURL.path)
        #expect(!reason.isEmpty)
        #expect(cache.stats().failedWrites == 1)
        #expect(cache.stats().lastWriteError == failure)
        #expect(cache.entry(for: url) == nil)
    }

    @Test func theDefaultFolderFollowsXDG() {
        #expect(DiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/var/cache/me", "HOME": "/home/me"]).path
            == "/var/cache/me/thumbtable")
        #expect(DiskCache.defaultDirectory(environment: ["HOME": "/home/me"]).path == "/home/me/.cache/thumbtable")
        #expect(DiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/me"]).path
            == "/home/me/.cache/thumbtable", "a relative XDG_CACHE_HOME is ignored, as the spec says")
        #expect(DiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "", "HOME": "/home/me"]).path
            == "/home/me/.cache/thumbtable")
    }

    // MARK: Helpers

    private func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    /// The size of the file that `data` makes for a URL as long as ".../a.png", measured in a scratch cache.
    private func entryFileSize() throws -> Int {
        let scratch = directory.appendingPathComponent("scratch")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cache = try DiskCache(directory: scratch)
        cache.store(data, for: url)
        return cache.stats().bytes
    }

    private func setLastUse(of file: URL, to date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: file.path)
    }

    private func sha256sum(_ bytes: [UInt8]) -> String {
        let file = directory.appendingPathComponent("sha-input")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try? process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }
}
