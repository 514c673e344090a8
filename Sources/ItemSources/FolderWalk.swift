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

    /// Walks the whole tree, unless stopped, and records how it ended.
    func run() {
        var entered = 0
        if let last = walk(root, prefix: [], entered: &entered) {
            // The last paths and the end in one step: a page never sees every path listed with the walk still on.
            listing.finish(.complete, listing: last)
        } else {
            listing.finish(.stopped)
        }
    }

    /// Lists the images of `folder` and walks its subfolders, in order; returns the paths after its last subfolder,
    /// for the caller to list, or nil when the walk was stopped.
    private func walk(_ folder: LocalPath, prefix: [UInt8], entered: inout Int) -> [[UInt8]]? {
        if listing.stopRequested { return nil }
        entered += 1
        enteringFolder?(entered)
        // A folder below that cannot be read is left out, as `find` would report and go on; the top folder was
        // opened once by `FolderSource.init`, which says why it cannot be read.
        let names = read(folder)
        if !recursive { listing.leftOut(folders: names.foldersLeftOut) }
        listing.found(names.names.count(where: { !$0.isFolder }))
        var batch: [[UInt8]] = []
        batch.reserveCapacity(names.count)
        for name in names.names {
            let path = names.path(of: name, after: prefix)
            if name.isFolder {
                listing.list(batch)
                batch.removeAll()
                let below = folder.appending(names.path(of: name, after: []))
                guard let rest = walk(below, prefix: path, entered: &entered) else {
                    return nil
                }
                listing.list(rest)
            } else {
                batch.append(path)
            }
        }
        return batch
    }

    /// The images of `folder` and, when recursive, its subfolders, sorted; empty when it cannot be read.
    private func read(_ folder: LocalPath) -> FolderNames {
        var names = FolderNames()
        guard let stream = folder.withCString({ opendir($0) }) else { return names }
        defer { closedir(stream) }
        let descriptor = dirfd(stream)
        while let entry = readdir(stream) {
            // d_name is a NUL-terminated array inside the entry: read in place, copied once into `names`.
            withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                let name = UnsafeBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)])
                guard let first = name.first, first != UInt8(ascii: ".") else { return }
                let isImage = Self.hasImageExtension(name)
                // A folder matters when recursing, and is counted when not (the user is told it is left out); an
                // image name that is a folder is not listed.
                let isFolder = Self.type(of: name, dType: entry.pointee.d_type, in: descriptor) == .folder
                if isFolder && !recursive {
                    names.foldersLeftOut += 1
                } else if isFolder ? recursive : isImage {
                    names.append(name, isFolder: isFolder)
                }
            }
        }
        names.sort()
        return names
    }

    /// The entry's type from `d_type`, or from `fstatat` (not following symlinks) when the file system leaves it
    /// `DT_UNKNOWN`. `name` is followed by a NUL in memory, as `d_name` is.
    static func type(of name: UnsafeBufferPointer<UInt8>, dType: UInt8, in folder: Int32) -> EntryType {
        switch Int32(dType) {
        case Int32(DT_DIR): return .folder
        case Int32(DT_UNKNOWN):
            var info = stat()
            let found = name.withMemoryRebound(to: CChar.self) {
                fstatat(folder, $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW)
            }
            return found == 0 && info.st_mode & S_IFMT == S_IFDIR ? .folder : .other
        default: return .other
        }
    }

    /// Whether the name ends in one of `FolderSource.imageExtensions`, in any case.
    static func hasImageExtension(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > name.startIndex else { return false }
        let suffix = name[(dot + 1)...]
        guard suffix.count <= 4, suffix.allSatisfy({ $0 < 0x80 }) else { return false }
        var lowered = ""
        for byte in suffix { lowered.unicodeScalars.append(Unicode.Scalar(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)) }
        return FolderSource.imageExtensions.contains(lowered)
    }
}
