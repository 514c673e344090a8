import Cells
import Foundation

/// Progress of a batch prefetch (the `P` key): every loaded row's thumbnail fetched into the caches.
public struct BatchProgress: Sendable, Equatable {
    public var total: Int
    public var done = 0
    public var failed = 0
    public var cancelled = false
    public init(total: Int) { self.total = total }
    public var finished: Bool { cancelled || done + failed >= total }
}

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
                            try await loader.warm(url, size: size)
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

    /// Draws the batch prefetch's progress bar over the status line.
    func drawBatchProgress(_ progress: BatchProgress, into frame: inout CellBuffer, y: Int) {
        let theme = configuration.theme
        let counts = "\(progress.done + progress.failed)/\(progress.total)"
            + (progress.failed > 0 ? " (\(progress.failed) failed)" : "")
        let label = progress.cancelled ? " prefetch cancelled " : progress.finished ? " prefetched " : " prefetching "
        let tail = " \(counts)" + (progress.finished ? "" : " · Esc cancels")
        let barWidth = max(0, size.columns - label.displayWidth - tail.displayWidth - 2)
        let filled = progress.total == 0 ? barWidth
            : barWidth * (progress.done + progress.failed) / progress.total
        let unicode = TerminalText.unicodeAvailable
        let bar = String(repeating: unicode ? "█" : "#", count: filled)
            + String(repeating: unicode ? "░" : ".", count: barWidth - filled)
        frame.fill(x: 0, y: y, width: size.columns, height: 1, with: Cell(" ", style: theme.status))
        frame.put(label + "[" + bar + "]" + tail, x: 0, y: y, style: theme.status, maxWidth: size.columns)
    }
}
