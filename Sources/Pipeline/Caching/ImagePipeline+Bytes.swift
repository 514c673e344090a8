import Cells
import FoundationEssentials
import LocalFiles

/// The bytes of an image, looked for tier by tier: the memory cache, the disk cache, then a download shared by
/// everyone who wants that URL.
extension ImagePipeline {
    /// Image bytes in memory, and whether they came from the disk cache (so a damaged entry is refetched by every
    /// job).
    struct CachedBytes: Sendable {
        var data: LoadedData
        var fromDisk: Bool
    }

    /// The bytes of a URL: from memory, from disk, or by joining or starting its download; with whether they
    /// came from the disk cache (now or before they were kept in memory) and where they came from this time.
    ///
    /// A disk entry is used as it is while fresh (see `DiskCache.Entry.isFresh(at:)`). A stale one with
    /// validators is revalidated by a conditional GET that any other job of the URL joins: a 304 serves it from
    /// disk. A stale one without validators is downloaded again whole.
    func bytes(for url: URL, skippingDisk: Bool = false) async throws
        -> (LoadedData, fromDisk: Bool, origin: ThumbnailOrigin) {
        if let cached = downloads.value(for: url), !(skippingDisk && cached.fromDisk) {
            counters.add(\.memoryHits)
            return (cached.data, cached.fromDisk, .memory)
        }
        var stale: LoadedData?
        if !skippingDisk, let diskCache, let entry = await diskEntry(url, in: diskCache) {
            let data = entry.loadedData
            if entry.isFresh(at: Date()) {
                counters.add(\.diskHits)
                downloads.set(CachedBytes(data: data, fromDisk: true), for: url, cost: data.bytes.count + 64)
                return (data, true, .disk)
            }
            if data.hasValidators { stale = data }
        }
        // A render job waits for the download as the least urgent subscriber: the download's priority comes from
        // the render jobs of its URL (see `priority(of:)`).
        let (subscription, joined) = downloadJobs.subscribe(url, priority: .prefetch) { [stale] in
            try await self.download(url, revalidating: stale)
        }
        if joined { counters.add(\.coalesced) }
        let fetched = try await subscription.value()
        return (fetched.data, fetched.fromDisk, fetched.fromDisk ? .disk : .network)
    }

    /// Keeps fetched bytes in memory and on disk: freshly downloaded ones, or stored ones a 304 renewed (their
    /// entry is written again with the new freshness and validators).
    func keep(_ data: LoadedData, for url: URL, fromDisk: Bool = false) async {
        downloads.set(CachedBytes(data: data, fromDisk: fromDisk), for: url, cost: data.bytes.count + 64)
        await storeOnDisk(data, for: url)
    }

    private func diskEntry(_ url: URL, in diskCache: DiskCache) async -> DiskCache.Entry? {
        switch await Self.read(url, from: diskCache) {
        case .hit(let entry): return entry
        case .miss: return nil
        case .discarded:
            counters.add(\.diskEntriesDiscarded)
            return nil
        }
    }

    /// Disk reads and writes (file I/O and a SHA-256) run off the actor, on the blocking-I/O threads: a slow disk
    /// must not hold the cooperative pool that serves the screen and the network.
    private static func read(_ url: URL, from diskCache: DiskCache) async -> DiskCache.Lookup {
        await BlockingIO.run { diskCache.lookup(url) }
    }

    private static func store(_ data: LoadedData, for url: URL, in diskCache: DiskCache) async -> DiskCache.Error? {
        await BlockingIO.run { diskCache.store(data, for: url) }
    }

    /// Keeps downloaded bytes on disk, until a write fails: then says so once and stops writing, since a full or
    /// read-only folder would fail every later write too.
    private func storeOnDisk(_ data: LoadedData, for url: URL) async {
        guard !url.isFileURL, !diskWritesOff, let diskCache else { return }
        guard let error = await Self.store(data, for: url, in: diskCache), !diskWritesOff else { return }
        diskWritesOff = true
        diskCacheOffHandler.withLock { $0 }?(error)
    }
}
