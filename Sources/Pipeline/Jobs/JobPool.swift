import Synchronization

/// Work shared by everyone who asks for the same key: equal keys join one job, and a job ends (its task cancelled)
/// when its last subscriber leaves.
///
/// The pipeline keeps one pool of render jobs keyed by `ThumbnailRequest` and one of downloads keyed by `URL`.
/// Joining and leaving are synchronous and safe from any thread, so a subscriber whose task is cancelled leaves at
/// once, from its cancellation handler, without waiting for the pipeline actor.
final class JobPool<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Subscriber {
        var priority: RequestPriority
        /// Nil until the subscriber awaits the value (see `Subscription.value()`).
        var continuation: CheckedContinuation<Value, any Error>?
    }

    private struct Job {
        var key: Key
        var task: Task<Void, Never>?
        var subscribers: [Int: Subscriber] = [:]
        /// Set when the job has ended while some subscriber had not yet awaited it.
        var result: Result<Value, any Error>?
        var priority: RequestPriority { subscribers.values.map(\.priority).max() ?? .prefetch }
    }

    private struct State {
        /// The job under way for each key: the one a new subscriber joins.
        var current: [Key: Int] = [:]
        /// Jobs by id, until every subscriber has its answer: a job stopped by `cancelAll` is no longer current but
        /// still answers its subscribers when its task ends.
        var jobs: [Int: Job] = [:]
        /// Ids for jobs and subscribers alike: each is used once.
        var nextID = 0

        mutating func newID() -> Int {
            nextID += 1
            return nextID
        }

        /// Forgets a job that has no subscribers left.
        mutating func dropIfUnwanted(_ id: Int) {
            guard let job = jobs[id], job.subscribers.isEmpty else { return }
            jobs[id] = nil
            if current[job.key] == id { current[job.key] = nil }
        }
    }

    private let state = Mutex(State())

    /// A place among a job's subscribers, taken by `subscribe`; awaiting `value()` collects the job's result.
    struct Subscription: Sendable {
        let pool: JobPool
        let job: Int
        let id: Int

        /// The job's result. If the calling task is cancelled it leaves at once with `CancellationError`; the job
        /// is cancelled when its last subscriber leaves.
        func value() async throws -> Value {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    pool.wait(self, continuation)
                }
            } onCancel: {
                pool.leave(self)
            }
        }
    }

    /// Joins the job for `key`, or starts one that runs `work` in a task of its own. Await the subscription's
    /// `value()` once, at once.
    /// - Returns: the subscription, and whether it joined a job already under way.
    func subscribe(_ key: Key, priority: RequestPriority,
                   work: @escaping @Sendable () async throws -> Value) -> (Subscription, joined: Bool) {
        state.withLock { s in
            let job: Int
            let joined: Bool
            if let current = s.current[key] {
                (job, joined) = (current, true)
            } else {
                (job, joined) = (s.newID(), false)
                s.current[key] = job
                s.jobs[job] = Job(key: key, task: Task {
                    let result: Result<Value, any Error>
                    do { result = .success(try await work()) } catch { result = .failure(error) }
                    self.finish(job, with: result)
                })
            }
            let subscriber = s.newID()
            s.jobs[job]!.subscribers[subscriber] = Subscriber(priority: priority)
            return (Subscription(pool: self, job: job, id: subscriber), joined)
        }
    }

    /// The most urgent priority among the subscribers of the job under way for `key`, or nil when there is none.
    func priority(of key: Key) -> RequestPriority? {
        state.withLock { s in s.current[key].flatMap { s.jobs[$0]?.priority } }
    }

    /// Stops every job; their subscribers get `CancellationError` as the jobs' tasks end. The keys are forgotten at
    /// once, so a later request starts afresh instead of joining a dying job.
    func cancelAll() {
        let tasks = state.withLock { s in
            defer { s.current.removeAll() }
            return s.current.values.compactMap { s.jobs[$0]?.task }
        }
        for task in tasks { task.cancel() }
    }

    // MARK: Subscribers

    private func wait(_ subscription: Subscription, _ continuation: CheckedContinuation<Value, any Error>) {
        let answer: Result<Value, any Error>? = state.withLock { s in
            // Gone: the subscriber left before it awaited.
            guard let job = s.jobs[subscription.job], job.subscribers[subscription.id] != nil else {
                return .failure(CancellationError())
            }
            guard let result = job.result else {
                s.jobs[subscription.job]!.subscribers[subscription.id]!.continuation = continuation
                return nil
            }
            s.jobs[subscription.job]!.subscribers[subscription.id] = nil
            s.dropIfUnwanted(subscription.job)
            return result
        }
        if let answer { continuation.resume(with: answer) }
    }

    private func leave(_ subscription: Subscription) {
        let (continuation, task) = state.withLock { s -> (CheckedContinuation<Value, any Error>?, Task<Void, Never>?) in
            guard let subscriber = s.jobs[subscription.job]?.subscribers.removeValue(forKey: subscription.id)
            else { return (nil, nil) }
            let job = s.jobs[subscription.job]!
            // An ended job has nothing left to cancel.
            let task = job.subscribers.isEmpty && job.result == nil ? job.task : nil
            s.dropIfUnwanted(subscription.job)
            return (subscriber.continuation, task)
        }
        continuation?.resume(throwing: CancellationError())
        task?.cancel()
    }

    private func finish(_ id: Int, with result: Result<Value, any Error>) {
        let continuations = state.withLock { s -> [CheckedContinuation<Value, any Error>] in
            guard var job = s.jobs[id] else { return [] }
            if s.current[job.key] == id { s.current[job.key] = nil }
            let waiting = job.subscribers.values.compactMap(\.continuation)
            job.subscribers = job.subscribers.filter { $0.value.continuation == nil }
            job.result = result
            s.jobs[id] = job
            s.dropIfUnwanted(id)
            return waiting
        }
        for continuation in continuations { continuation.resume(with: result) }
    }
}
