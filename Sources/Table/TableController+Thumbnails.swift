import FoundationEssentials
import Items

/// The rows' thumbnails: loading one again, looking a missing picture up again, and the batch prefetch (`P`).
extension TableController {
    /// Loads the selected row's thumbnail again (the `r` key), or retries a failed page when the status row is selected.
    public func retrySelected() {
        if let (index, item) = selectedItem {
            if item.rowImageURL == nil {
                refreshImage(of: index)
                return
            }
            guard let size = listLayout.thumbnailBox, binder.reload(item: index, size: size) else { return }
            changed()
        } else if case .failed = list.status {
            retryPage()
        } else if case .stopped = list.status {
            resumePaging()
        }
    }

    /// Asks the source to look a row's picture up again (a row without an image, whose lookup failed). When the
    /// item comes back changed, its row is laid out and bound anew.
    private func refreshImage(of index: Int) {
        let item = items[index], source = self.source
        say("looking the picture up again…")
        Task { [weak self] in
            let refreshed = await source.refreshImage(of: item)
            guard let self, index < self.items.count, self.items[index].id == item.id else { return }
            if let refreshed, refreshed != item {
                self.paging.replace(item: index, with: refreshed)
                self.navigation.forgetHeight(ofItem: index)
                self.binder.forget(item: index)
                self.status = refreshed.rowImageURL == nil ? "still no picture: see the detail pane" : nil
            } else {
                self.status = refreshed == nil ? "this row has no image to retry" : "still no picture: see the detail pane"
            }
            self.changed()
        }
    }

    /// Fetches the thumbnail of every loaded row into the caches (the `P` key), showing a progress bar with counts.
    /// The rows on screen keep priority over it. `cancelBatchPrefetch` (Esc) stops it.
    public func startBatchPrefetch() {
        guard !batch.isRunning, let size = listLayout.thumbnailBox else { return }
        var seen = Set<URL>()
        batch.start(items.compactMap(\.rowImageURL).filter { seen.insert($0).inserted }, size: size)
    }

    /// Stops the batch prefetch; what it fetched stays cached.
    public func cancelBatchPrefetch() {
        batch.cancel()
    }

    /// Hides a finished batch's progress bar.
    public func dismissBatchProgress() {
        batch.dismiss()
    }
}
