import Basics
import Crypto
import Dispatch
import FoundationEssentials
import LocalFiles
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The cache of downloaded image bytes on disk, kept across runs.
///
/// One file per URL, named by the SHA-256 of the URL (`<key>.entry`), holding a magic number, a length-prefixed
/// JSON header (`Metadata`: the URL, validators, freshness, size and checksum of the bytes) and then the bytes:
/// no sidecar that can get out of step. A write goes to a temporary file in the same folder and is renamed into
/// place, so a reader sees the old entry or the new one, never half of one. An entry that does not check out
/// (truncated, garbage, checksum mismatch, another URL's) is deleted and reported as absent, so it is fetched
/// again rather than drawn as garbage.
///
/// The folder is kept under `sizeLimit` by deleting the least recently used entries (a hit refreshes an entry's
/// modification time). The total is kept as a running count, so the folder is only scanned when the count is
/// unknown (after the first store) or over the limit; a trim then deletes down to 90 % of the limit, so that a full
/// cache is not scanned again at every store. Trims run on a queue of their own, beside the work: a store never
/// waits for one, so a folder of 100,000 entries does not hold back the first pictures. Only the cache's own files
/// are ever deleted (see `DiskCacheFolder`): anything else in the folder is left, and counted by `stats()`.
///
/// A response that says `no-store` is not kept. Whether an entry is fresh (used without asking the server) or stale
/// (revalidated first) is the entry's to say: see `Entry.isFresh(at:)`.
public final class DiskCache: Sendable {
    /// What `thumbtable cache stats` shows.
    public struct Stats: Sendable, Equatable {
        public var directory: URL
        public var entries: Int
        /// The size of the entry files, headers included.
        public var bytes: Int
        public var limit: Int
        /// Files in the folder that are not the cache's (another name, not a regular file, or not starting with the
        /// cache's header): left alone, and their size.
        public var otherFiles: Int
        public var otherBytes: Int
        /// Stores that failed since this cache was opened, and why the last one did.
        public var failedWrites: Int
        public var lastWriteError: DiskCache.Error?
    }

    /// Why the cache cannot be used or could not keep an entry, with what to do about it.
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// The folder cannot be created, or is not a writable folder.
        case unusableDirectory(path: String, reason: String)
        /// An entry could not be written (a full disk, say); the cache goes on without it.
        case writeFailed(path: String, reason: String)

        public var description: String {
            switch self {
            case .unusableDirectory(let path, let reason):
                "cannot use \(path) as the image cache: \(reason); choose another folder with --cache-dir"
            case .writeFailed(let path, let reason):
                "cannot write to the image cache in \(path): \(reason); images are still shown but not kept"
            }
        }
    }

    public let directory: URL
    public let sizeLimit: Int

    struct State {
        /// The size of all entry files, or nil while it is not known: before the first trim has counted, and while a
        /// trim counts.
        var totalBytes: Int?
        /// Whether a trim is queued or running.
        var trimPending = false
        /// Whether a trim is counting the folder now, and the bytes stores and removals added (or took) meanwhile.
        var counting = false
        var changedWhileCounting = 0
        var failedWrites = 0
        var lastWriteError: DiskCache.Error?
    }

    let state = Mutex(State())
    let folder: DiskCacheFolder
    /// Where trims run, one at a time.
    let trimQueue: DispatchQueue

    /// Opens (creating if needed) the cache in `directory`.
    ///
    /// - Parameters:
    ///   - forReading: only to read or count entries (`cache stats`): a folder that cannot be written is accepted.
    ///   - trimQueue: the serial queue trims run on; by default one of the cache's own (a test holds one back).
    public init(directory: URL, sizeLimit: Int = 200 << 20, forReading: Bool = false,
                trimQueue: DispatchQueue? = nil) throws(DiskCache.Error) {
        self.directory = directory.standardizedFileURL
        self.sizeLimit = sizeLimit
        self.folder = DiskCacheFolder(path: self.directory.path)
        self.trimQueue = trimQueue ?? DispatchQueue(label: "thumbtable.disk-cache-trim", qos: .utility)
        let path = self.directory.path
        do {
            try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        } catch {
            throw .unusableDirectory(path: path, reason: Self.creationFailureReason(path) ?? fileErrorReason(error))
        }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory else {
            throw .unusableDirectory(path: path, reason: "it is not a folder")
        }
        guard !forReading else { return }
        // Creating a file is the only true test: `access(W_OK)` says yes to root on a read-only file system.
        let probe = path + "/.probe" + DiskCacheFolder.entrySuffix + "." + UUID().uuidString
            + DiskCacheFolder.temporarySuffix
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .unusableDirectory(path: path, reason: String(cString: strerror(errno))) }
        close(fd)
        unlink(probe)
    }

    /// Why a folder cannot be created at `path` when a part of the path is a file: "/x/file is not a folder".
    /// Foundation's own message for that case names no path and no reason.
    private static func creationFailureReason(_ path: String) -> String? {
        var ancestor = URL(fileURLWithPath: path)
        while ancestor.path != "/" {
            var isDirectory = false
            if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) {
                return isDirectory ? nil : "\(ancestor.path) is not a folder"
            }
            ancestor.deleteLastPathComponent()
        }
        return nil
    }

    /// `$XDG_CACHE_HOME/thumbtable` when that variable holds an absolute path (the XDG spec ignores relative
    /// ones), else `~/.cache/thumbtable`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("thumbtable", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".cache", isDirectory: true)
            .appendingPathComponent("thumbtable", isDirectory: true)
    }

    /// The name of a URL's entry: the lowercase hex SHA-256 of `url.absoluteString`.
    public static func key(for url: URL) -> String {
        hex(SHA256.hash(data: Array(url.absoluteString.utf8)))
    }

    /// The file that holds the entry for `url`.
    public func fileURL(for url: URL) -> URL {
        directory.appendingPathComponent(Self.key(for: url) + DiskCacheFolder.entrySuffix)
    }

    // MARK: Reading

    /// The largest entry file read back: far above any image the loader keeps (256 MB at most).
    static let largestEntry = 1 << 30

    /// What looking a URL up found.
    public enum Lookup: Sendable, Equatable {
        case hit(Entry)
        case miss
        /// There was an entry, but it did not check out (damaged, truncated, another URL's), and it was deleted.
        case discarded
    }

    /// The cached entry for `url`, or nil. An entry that does not check out is deleted. A hit refreshes the
    /// entry's last use, for the LRU sweep.
    public func entry(for url: URL) -> Entry? {
        if case .hit(let entry) = lookup(url) { return entry }
        return nil
    }

    /// Looks `url` up, saying whether a damaged entry was discarded. A hit refreshes the entry's last use.
    public func lookup(_ url: URL) -> Lookup {
        let path = fileURL(for: url).path
        // LocalFile rather than FileManager.contents: it never blocks on something that is not a file, and
        // FoundationEssentials leaks 4 KB on every empty file it reads (seen under LeakSanitizer).
        guard let before = try? FileManager.default.attributesOfItem(atPath: path),
              let contents = try? LocalFile.read(LocalPath(path), limit: Self.largestEntry)
        else { return .miss }
        guard let entry = Self.decode(contents, url: url) else {
            discard(path: path, ifStill: before)
            return .discarded
        }
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: path)
        return .hit(entry)
    }

    /// Deletes a corrupt entry, unless a store replaced it since it was read (then it is another file).
    private func discard(path: String, ifStill read: [FileAttributeKey: Any]) {
        state.withLock { state in
            guard let now = try? FileManager.default.attributesOfItem(atPath: path),
                  Self.inode(now) == Self.inode(read), unlink(path) == 0
            else { return }
            account(-Self.size(now), in: &state)
        }
    }

    // MARK: Writing

    /// Keeps `data` as the entry for `url`, replacing any older entry atomically. An entry larger than the whole
    /// size limit is not kept (it would be swept at once), nor one whose response said `no-store` (which deletes
    /// an older entry, now out of date).
    ///
    /// - Returns: why it could not be kept, or nil when it was. Either way the cache stays usable, and `stats()`
    ///   counts the failures: a full disk means no caching, not an error for the caller.
    @discardableResult
    public func store(_ data: LoadedData, for url: URL) -> DiskCache.Error? {
        if data.freshness?.noStore == true {
            remove(url)
            return nil
        }
        let metadata = Metadata(
            url: url.absoluteString, contentType: data.contentType, etag: data.etag, lastModified: data.lastModified,
            byteCount: data.bytes.count, sha256: Self.hex(SHA256.hash(data: data.bytes)),
            storedAt: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)),
            freshness: data.freshness)
        let file = Self.encode(metadata, bytes: data.bytes)
        // An entry over the whole limit would be swept at once.
        guard file.count <= sizeLimit else { return nil }

        let destination = fileURL(for: url)
        let temporary = directory.appendingPathComponent(
            "." + destination.lastPathComponent + "." + UUID().uuidString + DiskCacheFolder.temporarySuffix)
        do {
            try Data(file).write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return noteFailure(.writeFailed(path: directory.path, reason: fileErrorReason(error)))
        }
        // Renaming and counting under the lock keeps the running total true to the folder.
        let failure = state.withLock { state -> DiskCache.Error? in
            var replaced = stat()
            let replacedSize = lstat(destination.path, &replaced) == 0 ? Int(replaced.st_size) : 0
            guard rename(temporary.path, destination.path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary.path)
                return .writeFailed(path: directory.path, reason: reason)
            }
            account(file.count - replacedSize, in: &state)
            return nil
        }
        return failure.map(noteFailure)
    }

    /// Adds a store's or a removal's change in bytes to the running total, and asks for a trim when the total is
    /// not known yet or passed the limit. Called under the lock.
    private func account(_ change: Int, in state: inout State) {
        if let total = state.totalBytes {
            state.totalBytes = total + change
            if total + change > sizeLimit { scheduleTrim(&state) }
        } else if state.counting {
            state.changedWhileCounting += change
        } else {
            // Not counted yet: the trim's scan will see this file.
            scheduleTrim(&state)
        }
    }

    private func noteFailure(_ error: DiskCache.Error) -> DiskCache.Error {
        state.withLock { state in
            state.failedWrites += 1
            state.lastWriteError = error
        }
        return error
    }

    /// Deletes the entry for `url`, if there is one.
    public func remove(_ url: URL) {
        let path = fileURL(for: url).path
        state.withLock { state in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path), unlink(path) == 0
            else { return }
            account(-Self.size(attributes), in: &state)
        }
    }

    /// Deletes every entry (and any temporary file) of the cache, leaving the folder and files that are not the
    /// cache's. Waits for a trim under way first.
    /// - Returns: the entries deleted and their size.
    @discardableResult
    public func removeAll() -> (entries: Int, bytes: Int) {
        trimQueue.sync {
            state.withLock { state in
                let deleted = folder.deleteAll()
                state.totalBytes = 0
                return deleted
            }
        }
    }

    /// Counts the entries and their size, and the other files in the folder (scanning it, so it sees other
    /// processes' writes too; each entry's header is checked).
    public func stats() -> Stats {
        let listing = folder.scan(checkHeaders: true)
        return state.withLock { state in
            Stats(directory: directory, entries: listing.entries.count,
                  bytes: listing.entries.reduce(0) { $0 + $1.size }, limit: sizeLimit,
                  otherFiles: listing.otherFiles, otherBytes: listing.otherBytes,
                  failedWrites: state.failedWrites, lastWriteError: state.lastWriteError)
        }
    }

    // FoundationEssentials gives these attributes as UInt and UInt64; with all of Foundation loaded (the tests),
    // they are NSNumbers, which cast to any integer type.
    private static func size(_ attributes: [FileAttributeKey: Any]) -> Int {
        (attributes[.size] as? UInt).map { Int($0) } ?? attributes[.size] as? Int ?? 0
    }

    private static func inode(_ attributes: [FileAttributeKey: Any]) -> UInt64? {
        attributes[.systemFileNumber] as? UInt64
    }
}
