import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The disk cache's folder as the cache sees it: its entries, its temporary files, and everything else, which it
/// never deletes. A file is the cache's only when it has one of the cache's names (`<64 hex digits>.entry`, or a
/// temporary `.<64 hex digits>.entry.<UUID>.tmp`), is a regular file (not a link, not a folder) and starts with the
/// cache's magic number; a user's `notes.entry`, a link named like an entry, or a file under an entry's name with
/// other contents is left where it is.
///
/// Read with `readdir` and `fstatat` on the folder's descriptor: one system call a file, where Foundation's
/// attributes cost several (and a look-up of the owner's name), which made a scan of 100,000 entries take seconds.
struct DiskCacheFolder {
    let path: String

    /// An entry file found by a scan.
    struct Entry {
        var name: String
        var size: Int
        /// Its modification time: a hit refreshes it, so it is the last use.
        var lastUse: timespec
        var inode: UInt64
    }

    /// What a scan found.
    struct Listing {
        /// Files with an entry's name (checked for the header only when `checkHeaders` was asked).
        var entries: [Entry] = []
        /// Everything else in the folder that is not the cache's, and the size of those that are files.
        var otherFiles = 0
        var otherBytes = 0
    }

    /// The folder's files. Temporary files of the cache older than `staleTemporaryAge` seconds are left over from a
    /// crash and deleted (a younger one may be another process's write in progress).
    ///
    /// - Parameter checkHeaders: open each file with an entry's name to check that it starts with the cache's
    ///   header, counting those that do not among the others (`cache stats`); without it, a file is checked only
    ///   before it is deleted.
    func scan(checkHeaders: Bool, staleTemporaryAge: Int = 3600) -> Listing {
        var listing = Listing()
        guard let stream = opendir(path) else { return listing }
        defer { closedir(stream) }
        let folder = dirfd(stream)
        let staleBefore = time(nil) - staleTemporaryAge
        while let record = readdir(stream) {
            let name = withUnsafeBytes(of: &record.pointee.d_name) { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                return String(decoding: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)], as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let regular = info.st_mode & S_IFMT == S_IFREG
            if regular, Self.isEntryName(name), !checkHeaders || Self.hasHeader(name, in: folder, inode: UInt64(info.st_ino)) {
                listing.entries.append(Entry(name: name, size: Int(info.st_size), lastUse: info.st_mtim,
                                             inode: UInt64(info.st_ino)))
            } else if regular, Self.isTemporaryName(name),
                      info.st_size == 0 || Self.hasHeader(name, in: folder, inode: UInt64(info.st_ino)) {
                // A write in progress, or left over from a crash.
                if info.st_mtim.tv_sec < staleBefore { unlinkat(folder, name, 0) }
            } else {
                listing.otherFiles += 1
                if regular { listing.otherBytes += Int(info.st_size) }
            }
        }
        return listing
    }

    /// Deletes `entry` if it is still the file the scan found and starts with the cache's header.
    /// - Returns: whether it was deleted.
    func delete(_ entry: Entry) -> Bool {
        guard let folder = openFolder() else { return false }
        defer { close(folder) }
        guard Self.hasHeader(entry.name, in: folder, inode: entry.inode) else { return false }
        return unlinkat(folder, entry.name, 0) == 0
    }

    /// Deletes every entry and temporary file of the cache, checking each one's header; leaves everything else.
    /// - Returns: the entries deleted and their size.
    func deleteAll() -> (entries: Int, bytes: Int) {
        guard let stream = opendir(path) else { return (0, 0) }
        defer { closedir(stream) }
        let folder = dirfd(stream)
        var deleted = (entries: 0, bytes: 0)
        var names: [(name: String, size: Int, isEntry: Bool)] = []
        while let record = readdir(stream) {
            let name = withUnsafeBytes(of: &record.pointee.d_name) { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                return String(decoding: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)], as: UTF8.self)
            }
            let isEntry = Self.isEntryName(name)
            guard isEntry || Self.isTemporaryName(name) else { continue }
            var info = stat()
            guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else {
                continue
            }
            names.append((name, Int(info.st_size), isEntry))
        }
        // Deleted after the listing: unlinking while readdir goes on may make it skip names.
        for file in names {
            let ours = file.isEntry ? Self.hasHeader(file.name, in: folder)
                : file.size == 0 || Self.hasHeader(file.name, in: folder)
            guard ours, unlinkat(folder, file.name, 0) == 0, file.isEntry else { continue }
            deleted.entries += 1
            deleted.bytes += file.size
        }
        return deleted
    }

    private func openFolder() -> Int32? {
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        return folder >= 0 ? folder : nil
    }

    // MARK: Names and headers

    static let entrySuffix = ".entry"
    static let temporarySuffix = ".tmp"
    /// What every file the cache writes starts with.
    static let magic = Array("TTCACHE1".utf8)

    /// An entry's name: the 64 lowercase hex digits of a SHA-256, then `.entry`.
    static func isEntryName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        return bytes.count == 64 + entrySuffix.utf8.count && name.hasSuffix(entrySuffix)
            && bytes.prefix(64).allSatisfy(isLowerHex)
    }

    /// A temporary file's name: `.<entry name>.<UUID>.tmp`, or the writability probe's `.probe.entry.<UUID>.tmp`.
    static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(temporarySuffix) else { return false }
        let middle = name.dropFirst().dropLast(temporarySuffix.count)
        guard let dot = middle.lastIndex(of: "."), UUID(uuidString: String(middle[middle.index(after: dot)...])) != nil
        else { return false }
        let base = String(middle[..<dot])
        return isEntryName(base) || base == "probe" + entrySuffix
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    /// Whether the file `name` in `folder` is a regular file (not followed through a link) that starts with the
    /// cache's magic number, and, when `inode` is given, is still that file. Opened without blocking, so a FIFO
    /// under an entry's name cannot stall a sweep.
    static func hasHeader(_ name: String, in folder: Int32, inode: UInt64? = nil) -> Bool {
        let fd = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        if let inode, UInt64(info.st_ino) != inode { return false }
        var start = [UInt8](repeating: 0, count: magic.count)
        let count = start.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        return count == magic.count && start == magic
    }
}
