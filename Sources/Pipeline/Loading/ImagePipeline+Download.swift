import FoundationEssentials
import LocalFiles

/// The download stage: one download per URL with its retries, waiting for a download slot in priority order and
/// preempting stalled downloads for urgent ones (see `DownloadQueue` for the slots and the turns they take).
extension ImagePipeline {
    /// One download with its retries, each attempt waiting for a free download slot. An attempt preempted for
    /// another download goes back to waiting at once (see `DownloadQueue` for the turns it takes).
    ///
    /// With `stored` (a stale disk entry), each attempt is a conditional GET: a 304 renews the entry and answers its
    /// bytes. If the server cannot be reached, the stale bytes are answered rather than nothing; if it says the image
    /// is gone for good (a 404, say), the entry is deleted.
    func download(_ url: URL, revalidating stored: LoadedData? = nil) async throws -> CachedBytes {
        let tally = ByteTally()
        let counters = self.counters
        var retry = 0
        // A retry has had its turns: it takes no slot from an equal, and gives its own to none.
        var turnsLost = 0
        defer { underWay.ended(url) }
        while true {
            try Task.checkCancellation()
            underWay.waiting(url)
            let slot = try await acquireDownloadSlot(for: url, turnsLost: turnsLost)
            guard !Task.isCancelled, let activity = downloadQueue.running[slot]?.activity else {
                releaseDownloadSlot(slot)
                throw CancellationError()
            }
            underWay.receiving(url, tally)
            counters.downloadStarted()
            let loader = self.loader, limits = configuration.limits
            let received: @Sendable (Int) -> Void = { n in
                activity.received()
                tally.add(n)
                counters.add(\.bytesDownloaded, n)
            }
            if stored != nil { counters.add(\.revalidated) }
            let began = ContinuousClock.now
            // Its own task, so that preempting it leaves this download (and its subscribers) waiting for a slot.
            let attempt = Task { () async throws -> Revalidation in
                guard let stored else { return .modified(try await loader.load(url, limits: limits, received: received)) }
                return try await loader.revalidate(url, stored: stored, limits: limits, received: received)
            }
            downloadQueue.setPreempt(slot) { attempt.cancel() }
            let result = await withTaskCancellationHandler { await attempt.result } onCancel: { attempt.cancel() }
            counters.downloadEnded()
            releaseDownloadSlot(slot)
            switch result {
            case .success(.modified(let data)):
                downloadTime.add(.now - began)
                await keep(data, for: url)
                return CachedBytes(data: data, fromDisk: false)
            case .success(.notModified(let data)):
                downloadTime.add(.now - began)
                counters.add(\.notModified)
                await keep(data, for: url, fromDisk: true)
                return CachedBytes(data: data, fromDisk: true)
            case .failure(let error as LoadError) where !Task.isCancelled:
                retry += 1
                guard let delay = configuration.retry.delay(beforeRetry: retry, after: error) else {
                    if let stored {
                        if !error.isPermanent { return CachedBytes(data: stored, fromDisk: true) }
                        if let diskCache { await BlockingIO.run { diskCache.remove(url) } }
                    }
                    throw PipelineError.load(error)
                }
                counters.add(\.retries)
                turnsLost = DownloadQueue.maxTurnsLost
                try await configuration.retry.sleep(delay)
            case .failure where activity.isPreempted && !Task.isCancelled:
                counters.add(\.bytesDiscarded, tally.total)
                tally.reset()
                turnsLost += 1
            case .failure(let error):
                if error is CancellationError || Task.isCancelled {
                    counters.add(\.downloadsCancelled)
                    counters.add(\.bytesDiscarded, tally.total)
                    throw CancellationError()
                }
                throw error
            }
        }
    }

    /// Where the download of `url` stands, if one is under way: waiting for a slot, or the bytes its attempt has
    /// received. Answers at once, from any thread.
    public nonisolated func downloadProgress(of url: URL) -> DownloadProgress? {
        underWay.progress(of: url)
    }

    /// How long a download typically takes once it has a slot (a moving average); nil before the first one ends.
    public nonisolated var typicalDownloadTime: Duration? {
        downloadTime.typical
    }

    /// A download is as urgent as the most urgent request waiting for its URL.
    private func priority(of url: URL) -> RequestPriority {
        guard let requests = renderRequestsByURL[url] else { return .prefetch }
        var best = RequestPriority.prefetch
        for request in requests.keys {
            if let priority = renderJobs.priority(of: request) { best = max(best, priority) }
        }
        return best
    }

    /// Waits for a download slot for `url`; returns the slot's id, to release it with.
    private func acquireDownloadSlot(for url: URL, turnsLost: Int) async throws -> Int {
        let id = downloadQueue.newID()
        if downloadQueue.canStart(url, priority: priority(of: url), priorityOf: priority(of:)) {
            downloadQueue.start(id, url, activity: DownloadActivity(turnsLost: turnsLost))
            return id
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard !Task.isCancelled else { return continuation.resume(throwing: CancellationError()) }
                downloadQueue.enqueue(.init(id: id, url: url, turnsLost: turnsLost, continuation: continuation))
                rebalanceDownloads()
            }
        } onCancel: {
            Task { await self.stopWaiting(id) }
        }
        return id
    }

    private func stopWaiting(_ id: Int) {
        downloadQueue.remove(id: id)?.continuation.resume(throwing: CancellationError())
    }

    private func releaseDownloadSlot(_ id: Int) {
        downloadQueue.finish(id)
        for waiter in downloadQueue.startWaiters(priority: priority(of:)) { waiter.continuation.resume() }
    }

    /// Makes way for urgent downloads: starts the waiters that fit now (a row that scrolled into view may have
    /// raised one's priority), and preempts a stalled download for each urgent waiter that still cannot start
    /// (see `DownloadQueue.preemption`). If none has stalled yet, looks again when the first would have.
    func rebalanceDownloads() {
        for waiter in downloadQueue.startWaiters(priority: priority(of:)) { waiter.continuation.resume() }
        let stalledAfter = configuration.preemptsStalledAfter
        let now = ContinuousClock.now
        var freeing = downloadQueue.slotsBeingFreed
        var nextLook: ContinuousClock.Instant?
        let urgent = downloadQueue.waiting.map { (waiter: $0, priority: priority(of: $0.url)) }
            .filter { $0.priority > .prefetch }
        for (waiter, waiterPriority) in urgent.sorted(by: { $0.priority > $1.priority }) {
            // Each slot being freed goes to the most urgent waiter.
            if freeing > 0 {
                freeing -= 1
                continue
            }
            switch downloadQueue.preemption(for: waiter, priority: waiterPriority, now: now,
                                            stalledAfter: stalledAfter, priorityOf: priority(of:)) {
            case .now(let victim):
                counters.add(\.downloadsPreempted)
                downloadQueue.takePreempt(victim)?()
            case .later(let at): nextLook = min(nextLook ?? at, at)
            case .never: break
            }
        }
        if let nextLook { scheduleRebalance(at: nextLook) }
    }

    private func scheduleRebalance(at instant: ContinuousClock.Instant) {
        if let rebalance, rebalance.at <= instant { return }
        rebalance?.task.cancel()
        rebalance = (instant, Task { [weak self] in
            guard (try? await Task.sleep(until: instant, clock: .continuous)) != nil else { return }
            await self?.rebalanceFired()
        })
    }

    private func rebalanceFired() {
        rebalance = nil
        rebalanceDownloads()
    }
}
