import Cells
import Foundation
@testable import Pipeline
import Synchronization
import TestSupport
import Testing
import TextArt

/// Cache folders that cannot be written: read-only, full, or not folders at all. The program runs on without the
/// disk cache and says so once; damaged entries are discarded and counted.
///
/// The tests run as root, whom permission bits do not stop: a read-only or full folder is a tmpfs mounted for the
/// test (read-only, or a few KB), which stops root too.
@Suite(.serialized) struct UnwritableCacheTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized
    let horse: [UInt8]
    let scratch: URL

    init() throws {
        horse = try [UInt8](Data(contentsOf: Self.photos.appendingPathComponent("horse.png")))
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("thumbtable-unwritable-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    func request(_ url: URL) -> ThumbnailRequest {
        ThumbnailRequest(url: url, size: CellSize(columns: 16, rows: 8), options: TextArtOptions(mode: .ascii, color: .none))
    }

    @Test func aReadOnlyFolderIsRefusedEvenToRoot() async throws {
        let folder = scratch.appendingPathComponent("ro")
        try await Mount.tmpfs(at: folder, options: "ro,size=64k") {
            let error = #expect(throws: DiskCache.Error.self) { try DiskCache(directory: folder) }
            #expect(error == .unusableDirectory(path: folder.path, reason: "Read-only file system"))
            #expect(error?.description == "cannot use \(folder.path) as the image cache: Read-only file system; "
                + "choose another folder with --cache-dir")
            let reading = try DiskCache(directory: folder, forReading: true)
            #expect(reading.stats().entries == 0, "counting needs no writes")
        }
    }

    @Test func aPathUnderARegularFileIsRefused() throws {
        let file = scratch.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let error = #expect(throws: DiskCache.Error.self) {
            try DiskCache(directory: file.appendingPathComponent("cache"))
        }
        guard case .unusableDirectory(let path, let reason) = error else {
            Issue.record("expected unusableDirectory, got \(String(describing: error))")
            return
        }
        #expect(path == file.appendingPathComponent("cache").path)
        #expect(reason == "\(file.path) is not a folder")
    }

    @Test func aDamagedEntryIsDiscardedAndCounted() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/horse.png", .ok(horse, contentType: "image/png"))
            let url = server.url("/horse.png")
            let cache = try DiskCache(directory: scratch.appendingPathComponent("cache"))
            cache.store(LoadedData(bytes: horse), for: url)
            var file = try [UInt8](Data(contentsOf: cache.fileURL(for: url)))
            file[file.count - 100] ^= 0xFF
            try Data(file).write(to: cache.fileURL(for: url))
            #expect(cache.lookup(url) == .discarded)
            #expect(cache.lookup(url) == .miss, "the damaged entry was deleted")

            // Damaged again, then read by a pipeline: discarded, counted, fetched again and stored whole.
            try Data(file).write(to: cache.fileURL(for: url))
            let pipeline = ImagePipeline(loader: DataLoader(), diskCache: cache)
            _ = try await pipeline.thumbnail(request(url)).value()
            let counts = pipeline.counters.snapshot
            #expect(counts.diskEntriesDiscarded == 1)
            #expect(counts.named.contains { $0.name == "disk_entries_discarded" && $0.value == 1 })
            #expect(server.requests(to: "/horse.png").count == 1)
            #expect(cache.entry(for: url)?.bytes == horse)
        }
    }

    @Test func aFullFolderTurnsDiskWritesOffOnceAndImagesStillShow() async throws {
        let folder = scratch.appendingPathComponent("full")
        try await Mount.tmpfs(at: folder, options: "size=8k") {
            try await TestHTTPServer.with { server in
                for i in 0..<3 { server.serve("/\(i).png", .ok(horse, contentType: "image/png")) }
                let cache = try DiskCache(directory: folder)
                let pipeline = ImagePipeline(loader: DataLoader(), diskCache: cache)
                let notices = NoticeLog()
                pipeline.onDiskCacheOff { notices.add($0.description) }

                for i in 0..<3 {
                    let picture = try await pipeline.thumbnail(request(server.url("/\(i).png"))).value()
                    #expect(!picture.plainText.isEmpty)
                }

                let said = notices.all
                #expect(said.count == 1, "\(said)")
                #expect(said.first?.hasPrefix("cannot write to the image cache in \(folder.path): ") == true)
                #expect(said.first?.contains("no space left on device") == true, "\(said)")
                #expect(cache.stats().failedWrites == 1, "no write was tried after the first failed")
            }
        }
    }
}

/// Notices received from another thread.
final class NoticeLog: Sendable {
    private let notices = Mutex<[String]>([])
    func add(_ notice: String) { notices.withLock { $0.append(notice) } }
    var all: [String] { notices.withLock { $0 } }
}

/// A tmpfs mounted for the length of a test (root only): a folder that stops root from writing.
enum Mount {
    static func tmpfs<T>(at folder: URL, options: String, _ body: () async throws -> T) async throws -> T {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try run("/bin/mount", ["-t", "tmpfs", "-o", options, "tmpfs", folder.path])
        do {
            let result = try await body()
            try run("/bin/umount", [folder.path])
            return result
        } catch {
            try? run("/bin/umount", [folder.path])
            throw error
        }
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw MountError(description: "\(tool) \(arguments.joined(separator: " ")) failed "
                + "(status \(process.terminationStatus)): these tests need root and tmpfs mounts")
        }
    }

    struct MountError: Error, CustomStringConvertible { var description: String }
}
