import Basics
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Keeping the folder under the size limit: trims, on a queue of their own and at low priority, beside the work.
extension DiskCache {
    /// Queues a trim, unless one is queued or running. Called under the lock.
    func scheduleTrim(_ state: inout State) {
        guard !state.trimPending else { return }
        state.trimPending = true
        trimQueue.async { [self] in Self.runAtLowPriority { self.trim() } }
    }

    /// How much lower than the program's other threads a trim runs (a nice value): a trim reads and deletes
    /// thousands of files, and on a busy machine must not take a core from the first screen's decoding.
    static let trimNiceness: Int32 = 10

    /// Runs `work` on a thread of its own at `trimNiceness`, and waits for it. A thread of its own, because a
    /// thread's niceness cannot be raised back without privileges: a worker of a dispatch queue would keep it.
    private static func runAtLowPriority(_ work: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let started = BackgroundThread.start(name: "cache trim") {
            // On Linux, PRIO_PROCESS with 0 names the calling thread, not the whole process.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, trimNiceness)
            work()
            done.signal()
        }
        if started { done.wait() } else { work() }
    }

    /// Waits until the trims asked for so far have run (tests, and anything that must see the folder settled).
    public func waitForTrims() {
        // A trim that ends over the limit queues the next one itself: wait until none is pending.
        repeat { trimQueue.sync {} } while state.withLock { $0.trimPending }
    }

    /// Counts the folder and, over the limit, deletes the least recently used entries down to 90 % of it. Runs on
    /// the trim queue, without the lock while it reads and deletes: stores and reads go on meanwhile, and what
    /// stores add while it counts is added to its count at the end. A file stored during the scan may be counted
    /// twice; the total then errs high, and the next trim counts again.
    private func trim() {
        state.withLock { state in
            state.totalBytes = nil
            state.counting = true
            state.changedWhileCounting = 0
        }
        let listing = folder.scan(checkHeaders: false)
        var total = listing.entries.reduce(0) { $0 + $1.size }
        if total > sizeLimit {
            let target = sizeLimit / 10 * 9
            let oldestFirst = listing.entries.sorted {
                ($0.lastUse.tv_sec, $0.lastUse.tv_nsec) < ($1.lastUse.tv_sec, $1.lastUse.tv_nsec)
            }
            for entry in oldestFirst where total > target {
                // An entry that is not the cache's after all (another header) is left, and not counted.
                _ = folder.delete(entry)
                total -= entry.size
            }
        }
        state.withLock { state in
            let grown = state.changedWhileCounting
            state.totalBytes = total + grown
            state.counting = false
            state.trimPending = false
            // Stores during the trim took it over the limit again: trim again (never for nothing, so a folder
            // that cannot be brought under the limit is not scanned over and over).
            if grown > 0, total + grown > sizeLimit { scheduleTrim(&state) }
        }
    }
}
