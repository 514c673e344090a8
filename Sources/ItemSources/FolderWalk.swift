import LocalFiles
#if canImport(Glibc)
import Glibc
#endif

/// Reads a folder (and, when recursive, the folders below it) for image names, in natural order, into a
/// `FolderListing` as it goes: a blocking walk, run on a thread of its own.
///
/// Each folder is read whole and sorted, then its images are listed and its subfolders walked in that order, so the
/// listing grows in its final order and a page can be shown as soon as its rows are in. Entry types come from
/// `readdir`'s `d_type`; only where the file system does not give one (`DT_UNKNOWN`) does an entry cost an `fstatat`.
/// Hidden entries are skipped; symlinks to folders are not followed (they could loop).
struct FolderWalk: Sendable {
    let root: LocalPath
    let recursive: Bool
    let listing: FolderListing
    /// Called as each folder is entered, with how many have been entered so far: the tests hold the walk there to
    /// see what the pages do meanwhile.
    var enteringFolder: (@Sendable (Int) -> Void)?

    /// What a directory entry is, for the walk.
    enum EntryType: Equatable {
        case folder
        /// Anything else: a file, a symlink, a FIFO... The page shows what it is when it reads it.
        case other
    }

    /// One name read from a folder.
    private struct Entry {
        var key: NaturalSortKey
        var isFolder: Bool
    }

    /// Walks the whole tree, unless stopped, and records how it ended.
    func run() {
        var entered = 0
        let stopped = !walk(root, prefix: [], entered: &entered)
        listing.finish(stopped ? .stopped : .complete)
    }

    /// Lists the images of `folder` and walks its subfolders, in order. Returns false when the walk was stopped.
    private func walk(_ folder: LocalPath, prefix: [UInt8], entered: inout Int) -> Bool {
        if listing.stopRequested { return false }
        entered += 1
        enteringFolder?(entered)
        // A folder below that cannot be read is left out, as `find` would report and go on; the top folder was
        // opened once by `FolderSource.init`, which says why it cannot be read.
        let entries = read(folder)
        listing.found(entries.count(where: { !$0.isFolder }))
        var batch: [[UInt8]] = []
        for entry in entries {
            let path = prefix.isEmpty ? entry.key.bytes : prefix + [UInt8(ascii: "/")] + entry.key.bytes
            if entry.isFolder {
                listing.list(batch)
                batch.removeAll()
                guard walk(folder.appending(entry.key.bytes), prefix: path, entered: &entered) else { return false }
            } else {
                batch.append(path)
            }
        }
        listing.list(batch)
        return true
    }

    /// The images of `folder` and, when recursive, its subfolders, sorted; empty when it cannot be read.
    private func read(_ folder: LocalPath) -> [Entry] {
        guard let stream = folder.withCString({ opendir($0) }) else { return [] }
        defer { closedir(stream) }
        let descriptor = dirfd(stream)
        var entries: [Entry] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix(while: { $0 != 0 }))
            }
            guard let first = name.first, first != UInt8(ascii: ".") else { continue }
            let isImage = Self.hasImageExtension(name)
            // A folder matters when recursing; an image name that is a folder is not listed.
            guard recursive || isImage else { continue }
            let isFolder = Self.type(of: name, dType: entry.pointee.d_type, in: descriptor) == .folder
            if isFolder ? recursive : isImage {
                entries.append(Entry(key: NaturalSortKey(name), isFolder: isFolder))
            }
        }
        entries.sort { $0.key < $1.key }
        return entries
    }

    /// The entry's type from `d_type`, or from `fstatat` (not following symlinks) when the file system leaves it
    /// `DT_UNKNOWN`.
    static func type(of name: [UInt8], dType: UInt8, in folder: Int32) -> EntryType {
        switch Int32(dType) {
        case Int32(DT_DIR): return .folder
        case Int32(DT_UNKNOWN):
            var info = stat()
            let found = (name + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { fstatat(folder, $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) }
            }
            return found == 0 && info.st_mode & S_IFMT == S_IFDIR ? .folder : .other
        default: return .other
        }
    }

    /// Whether the name ends in one of `FolderSource.imageExtensions`, in any case.
    static func hasImageExtension(_ name: [UInt8]) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > name.startIndex else { return false }
        let suffix = name[(dot + 1)...]
        guard suffix.count <= 4, suffix.allSatisfy({ $0 < 0x80 }) else { return false }
        let lowered = String(decoding: suffix.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        return FolderSource.imageExtensions.contains(lowered)
    }
}
