import FoundationEssentials
import LocalFiles

/// Memory pressure: the memory caches are shed, least needed first, when the gauge says memory is short.
extension ImagePipeline {
    /// Watches `gauge` every `interval` until `cancelAll()`, shedding the memory caches when it reads pressure.
    /// A later call replaces the watch.
    ///
    /// A timer rather than a PSI trigger or inotify: a trigger needs a cgroup v2 the process may write to, and
    /// inotify sees no change on /proc files; one look a second costs a few microseconds, so an idle screen stays
    /// idle.
    public nonisolated func watchMemory(_ gauge: MemoryGauge, every interval: Duration = .seconds(1)) {
        Task { await self.startWatching(gauge, every: interval) }
    }

    private func startWatching(_ gauge: MemoryGauge, every interval: Duration) {
        memoryWatch?.cancel()
        memoryWatch = Task { [weak self] in
            while (try? await Task.sleep(for: interval)) != nil {
                guard let pipeline = self else { return }
                if await BlockingIO.run({ gauge.read() })?.isUnderPressure == true {
                    await pipeline.shedMemory(until: { await BlockingIO.run { gauge.read() }?.isUnderPressure != true })
                }
            }
        }
    }

    /// Drops memory caches in order until `relieved` says memory is no longer short: decoded bitmaps (the largest,
    /// and redrawn from bytes), then downloaded bytes (read again from disk), then rendered grids but the most
    /// recently used eighth. The rows on screen keep their pictures: each slot holds its own grid. A purge is
    /// counted when it dropped something: pressure that outlasts empty caches is not the caches' to relieve.
    public func shedMemory(until relieved: @Sendable () async -> Bool) async {
        let before = bitmaps.count + downloads.count + rendered.count
        defer {
            if bitmaps.count + downloads.count + rendered.count < before { counters.add(\.memoryPurges) }
        }
        bitmaps.removeAll { _ in true }
        guard await !relieved() else { return }
        downloads.removeAll { _ in true }
        guard await !relieved() else { return }
        rendered.trim(toCost: rendered.costLimit / 8)
    }
}
