import Foundation

extension TableController {
    /// Fetches the thumbnail of every loaded row into the caches (the `P` key), showing a progress bar with counts.
    /// The rows on screen keep priority over it. `cancelBatchPrefetch` (Esc) stops it.
    public func startBatchPrefetch() {
        guard batchTask == nil, let size = layout.thumbnail else { return }
        var seen = Set<URL>()
        let urls = items.compactMap(\.rowImageURL).filter { seen.insert($0).inserted }
        batchProgress = BatchProgress(total: urls.count)
        changed()
        let loader = self.loader
        batchGeneration += 1
        let generation = batchGeneration
        batchTask = Task { [weak self] in
            await withTaskGroup(of: Bool.self) { group in
                for url in urls {
                    group.addTask {
                        do {
                            try await loader.warm(url, columns: size.columns, rows: size.rows)
                            return true
                        } catch {
                            return false
                        }
                    }
                }
                for await succeeded in group {
                    guard let self, !Task.isCancelled else { continue }
                    if succeeded { self.batchProgress?.done += 1 } else { self.batchProgress?.failed += 1 }
                    self.changed()
                }
            }
            // Only this batch's own handle: Esc and P again may already have started another.
            if let self, self.batchGeneration == generation { self.batchTask = nil }
        }
    }

    /// Whether a batch prefetch is under way.
    public var isBatchPrefetching: Bool { batchTask != nil }

    /// Stops the batch prefetch; what it fetched stays cached.
    public func cancelBatchPrefetch() {
        guard let task = batchTask else { return }
        task.cancel()
        batchTask = nil
        batchProgress?.cancelled = true
        changed()
    }

    /// Hides a finished batch's progress bar.
    public func dismissBatchProgress() {
        guard batchTask == nil, batchProgress != nil else { return }
        batchProgress = nil
        changed()
    }
}
