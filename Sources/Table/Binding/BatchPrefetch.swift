import Cells
import FoundationEssentials

/// The batch prefetch (the `P` key): fetches a list of thumbnails into the caches at batch priority, below the rows
/// on screen, counting what is done and what failed.
@MainActor
final class BatchPrefetch {
    /// The batch under way or just finished.
    private(set) var progress: BatchProgress?
    private var task: Task<Void, Never>?
    private var generation = 0
    private let loader: any ThumbnailLoading
    private let changed: ChangeSignal

    init(loader: any ThumbnailLoading, changed: ChangeSignal) {
        self.loader = loader
        self.changed = changed
    }

    /// Whether a batch is under way.
    var isRunning: Bool { task != nil }

    /// Starts fetching `urls`, unless a batch is under way.
    func start(_ urls: [URL], size: CellSize) {
        guard task == nil else { return }
        progress = BatchProgress(total: urls.count)
        changed.send()
        let loader = self.loader
        generation += 1
        let generation = self.generation
        task = Task { [weak self] in
            await withTaskGroup(of: Bool.self) { group in
                for url in urls {
                    group.addTask {
                        do {
                            try await loader.warm(url, size: size)
                            return true
                        } catch {
                            return false
                        }
                    }
                }
                for await succeeded in group {
                    guard let self, !Task.isCancelled else { continue }
                    if succeeded { self.progress?.done += 1 } else { self.progress?.failed += 1 }
                    self.changed.send()
                }
            }
            // Only this batch's own handle: Esc and P again may already have started another.
            if let self, self.generation == generation { self.task = nil }
        }
    }

    /// Stops the batch and says so in its progress; what it fetched stays cached.
    func cancel() {
        guard let task else { return }
        task.cancel()
        self.task = nil
        progress?.cancelled = true
        changed.send()
    }

    /// Forgets a finished batch's progress.
    func dismiss() {
        guard task == nil, progress != nil else { return }
        progress = nil
        changed.send()
    }

    /// Stops the batch without a word (the program is ending).
    func stop() {
        task?.cancel()
    }
}
