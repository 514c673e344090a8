import Dispatch
import Foundation
import Items
@testable import ItemSources
import LocalFiles
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The folder walk: entry types without a `stat` where `d_type` says, pages served while the walk goes on, and a
/// walk that stops when its source is let go. The walk is held at a folder by its `enteringFolder` hook, so what a
/// page sees meanwhile is certain, not a race.
@Suite struct FolderWalkTests {
    let root: String
    /// Folders below the root, and images in each.
    static let folders = 40, imagesPerFolder = 5

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tt-walk-\(UUID().uuidString)").path
        for folder in 1...Self.folders {
            let path = root + "/d\(folder)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            for image in 1...Self.imagesPerFolder {
                #expect(FileManager.default.createFile(atPath: path + "/img\(image).png", contents: Data([0x89])))
            }
        }
    }

    /// A walk over the tree, held when it enters folder number `holdAt` (the root is 1) until `release()`.
    final class Hold: Sendable {
        let holdAt: Int
        let reached: AsyncStream<Void>
        private let reachedContinuation: AsyncStream<Void>.Continuation
        private let gate = DispatchSemaphore(value: 0)

        init(at folder: Int) {
            holdAt = folder
            (reached, reachedContinuation) = AsyncStream.makeStream()
        }

        var hook: @Sendable (Int) -> Void {
            { [self] entered in
                guard entered == holdAt else { return }
                reachedContinuation.yield()
                gate.wait()
            }
        }

        func waitUntilReached() async {
            var iterator = reached.makeAsyncIterator()
            _ = await iterator.next()
        }

        func release() { gate.signal() }
    }

    // A walk that listed nothing before its end would hold the first page forever: the time limit fails it.
    @Test(.timeLimit(.minutes(1))) func theFirstPageComesWhileTheWalkGoesOnAndCountsWhatIsFound() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let hold = Hold(at: 10)
        let source = try FolderSource(path: LocalPath(root), recursive: true, pageSize: 20, enteringFolder: hold.hook)
        await hold.waitUntilReached()
        // Held entering d9 (root, d1…d8 done): 8 folders of 5 images are found and in order.
        let first = try await source.page(at: source.firstPage)
        #expect(first.items.map(\.title).prefix(7) == ["d1/img1.png", "d1/img2.png", "d1/img3.png", "d1/img4.png",
                                                       "d1/img5.png", "d2/img1.png", "d2/img2.png"])
        #expect(first.items.count == 20 && first.next == .offset(20))
        #expect(first.totalCount == 40 && first.stillCounting, "the header counts what has been found so far")
        #expect(source.countSoFar() == ItemCount(total: 40, stillCounting: true), "the count, between pages too")
        hold.release()
        #expect(await source.listing.ended() == .complete)
        #expect(source.countSoFar() == ItemCount(total: 200, stillCounting: false), "final once the walk ends")
        let all = try await allItems(of: source)
        #expect(all.count == Self.folders * Self.imagesPerFolder)
        #expect(all.last?.title == "d40/img5.png", "natural order: d40 after d9")
        #expect(all.map(\.title)[40] == "d9/img1.png")
        #expect(await source.listing.ended() == .complete)
        let last = try await source.page(at: .offset(180))
        #expect(last.next == nil && last.totalCount == 200 && !last.stillCounting)
    }

    @Test(.timeLimit(.minutes(1))) func lettingTheSourceGoStopsTheWalk() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let hold = Hold(at: 11)
        var source: FolderSource? = try FolderSource(path: LocalPath(root), recursive: true, pageSize: 20,
                                                     enteringFolder: hold.hook)
        let listing = try #require(source?.listing)
        await hold.waitUntilReached()
        source = nil  // what quitting does: the table and its source are let go
        hold.release()
        #expect(await listing.ended() == .stopped)
        // The walk read d10 (where it was held) and entered no folder after it.
        let window = try await listing.window(from: 0, count: 1000)
        #expect(window.listed == 10 * Self.imagesPerFolder)
    }

    @Test func entryTypesComeFromDTypeAndFromFstatatOnlyWhenUnknown() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(symlink(root + "/d1", root + "/link-to-d1") == 0)
        let stream = try #require(opendir(root))
        defer { closedir(stream) }
        let fd = dirfd(stream)
        func type(_ name: String, _ dType: Int32) -> FolderWalk.EntryType {
            (Array(name.utf8) + [0]).withUnsafeBufferPointer { buffer in
                FolderWalk.type(of: UnsafeBufferPointer(rebasing: buffer.dropLast()), dType: UInt8(dType), in: fd)
            }
        }
        // DT_UNKNOWN: fstatat decides, without following the symlink.
        #expect(type("d1", Int32(DT_UNKNOWN)) == .folder)
        #expect(type("d1/img1.png", Int32(DT_UNKNOWN)) == .other)
        #expect(type("link-to-d1", Int32(DT_UNKNOWN)) == .other, "a symlink to a folder is not followed")
        #expect(type("missing", Int32(DT_UNKNOWN)) == .other)
        // A known d_type is taken as it is: no stat (the name need not even exist).
        #expect(type("missing", Int32(DT_DIR)) == .folder)
        #expect(type("d1", Int32(DT_REG)) == .other)
        #expect(type("link-to-d1", Int32(DT_LNK)) == .other)
    }

    @Test func onlyImageNamesAreListedInAnyCase() {
        for name in ["a.png", "b.JPG", "c.jpeg", "d.Gif", "e.webp", "f.tar.PNG"] {
            #expect(Array(name.utf8).withUnsafeBufferPointer(FolderWalk.hasImageExtension), "\(name)")
        }
        for name in [".png", "png", "a.pngx", "a.txt", "a.", "a.p\u{E9}g"] {
            #expect(!Array(name.utf8).withUnsafeBufferPointer(FolderWalk.hasImageExtension), "\(name)")
        }
    }
}
