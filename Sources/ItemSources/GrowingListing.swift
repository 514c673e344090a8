import Items
import Synchronization

/// The images a folder walk has found so far, in listing order.
typealias FolderListing = GrowingListing<[[UInt8]]>

/// How a `GrowingListing` keeps what it lists: an array, or a store shaped for its elements (`InputLines`).
protocol ListingStore: Sendable {
    associatedtype Element: Sendable
    init()
    var count: Int { get }
    /// Appends `batch`'s elements after these.
    mutating func add(_ batch: Self)
    /// The elements in `range`, which lies within `0..<count`.
    func elements(_ range: Range<Int>) -> [Element]
}

/// A folder walk's paths, relative to the folder.
extension Array: ListingStore where Element == [UInt8] {
    mutating func add(_ batch: [[UInt8]]) { append(contentsOf: batch) }
    func elements(_ range: Range<Int>) -> [[UInt8]] { Array(self[range]) }
}

/// What a producer on a thread of its own (a folder walk, a reader of stdin) has found so far, in listing order: the
/// producer adds to it, pages wait on it for the rows they show, and it tells the producer to stop when nobody wants
/// the rest.
final class GrowingListing<Store: ListingStore>: Sendable {
    typealias Element = Store.Element

    /// How a walk ended.
    enum End: Sendable, Equatable {
        /// Every folder was read (every line, up to the end of the input).
        case complete
        /// `stop()` was called before the walk was done (the folder's source was let go: the user quit).
        case stopped
    }

    /// What a page sees: the entries it asked for, and how far the walk has got.
    struct Window: Sendable {
        /// The entries from the offset asked for, in order (for a folder: paths relative to it).
        var paths: [Element]
        /// How many paths are listed in order so far.
        var listed: Int
        /// How many image names the walk has read so far, some not yet in order (a folder's names wait for the
        /// folders before them): what the header counts while the walk goes on.
        var found: Int
        /// Subfolders a walk that is not recursive left out.
        var foldersLeftOut: Int
        /// Nil while the walk goes on.
        var end: End?
    }

    private struct Waiter {
        var id: Int
        /// Resumed once this many paths are listed, or at the end.
        var needed: Int
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var paths = Store()
        var found = 0
        var foldersLeftOut = 0
        var end: End?
        var stopRequested = false
        var waiters: [Waiter] = []
        var nextWaiterID = 0
        var endWaiters: [CheckedContinuation<End, Never>] = []
    }

    private let state = Mutex(State())

    // MARK: The walk's side

    /// Counts image names read from a folder, before they are in order.
    func found(_ count: Int) {
        state.withLock { $0.found += count }
    }

    /// Counts subfolders left out (a walk that is not recursive), before any path of the folder is listed.
    func leftOut(folders count: Int) {
        state.withLock { $0.foldersLeftOut += count }
    }

    /// Adds paths after those listed, and wakes the pages they complete.
    func list(_ paths: Store) {
        let ready = state.withLock { state in
            state.paths.add(paths)
            let count = state.paths.count
            let ready = state.waiters.filter { $0.needed <= count }
            state.waiters.removeAll { $0.needed <= count }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Adds the last paths, records the end of the walk and wakes everyone waiting.
    func finish(_ end: End, listing last: Store = Store()) {
        let (waiters, endWaiters) = state.withLock { state in
            state.paths.add(last)
            state.end = end
            defer { state.waiters = []; state.endWaiters = [] }
            return (state.waiters, state.endWaiters)
        }
        for waiter in waiters { waiter.continuation.resume() }
        for waiter in endWaiters { waiter.resume(returning: end) }
    }

    /// Whether the walk should stop before its next folder.
    var stopRequested: Bool { state.withLock { $0.stopRequested } }

    // MARK: The reader's side

    /// Asks the walk to stop; what it listed stays.
    func stop() {
        state.withLock { $0.stopRequested = true }
    }

    /// The paths from `start` on, at most `count` of them, once that many are listed (or, with `atLeast`, that
    /// many) or the walk has ended. Throws `CancellationError` when the calling task is cancelled first.
    func window(from start: Int, count: Int, atLeast: Int? = nil) async throws -> Window {
        try await wait(untilListed: start + min(count, atLeast ?? count))
        return state.withLock { state in
            let end = min(state.paths.count, start + count)
            let paths = start < end ? state.paths.elements(start..<end) : []
            return Window(paths: paths, listed: state.paths.count, found: state.found,
                          foldersLeftOut: state.foldersLeftOut, end: state.end)
        }
    }

    /// Waits until the walk has ended or `timeout` has passed, whichever comes first; returns false when the calling
    /// task was cancelled. What a header that follows the count waits on between looks (`ItemSource.waitForCount`).
    func waitForEnd(upTo timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await self.wait(untilListed: Int.max)) != nil }
            group.addTask { (try? await Task.sleep(for: timeout)) != nil }
            let first = await group.next() ?? false
            group.cancelAll()
            return first && !Task.isCancelled
        }
    }

    /// Returns once `needed` paths are listed or the walk has ended. Throws `CancellationError` when the calling task
    /// is cancelled first.
    private func wait(untilListed needed: Int) async throws {
        let id = state.withLock { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let waiting = state.withLock { state in
                    guard state.end == nil, state.paths.count < needed, !Task.isCancelled else { return false }
                    state.waiters.append(Waiter(id: id, needed: needed, continuation: continuation))
                    return true
                }
                if !waiting {
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// How many images the walk has found (listed in order or not yet) and whether it goes on, without waiting.
    var count: ItemCount {
        state.withLock { state in
            let walking = state.end == nil
            return ItemCount(total: walking ? max(state.found, state.paths.count) : state.paths.count,
                             stillCounting: walking)
        }
    }

    /// What `body` reads of everything listed so far, without waiting.
    func reading<Value>(_ body: (Store) -> Value) -> Value {
        state.withLock { body($0.paths) }
    }

    /// How the walk ended, once it has.
    func ended() async -> End {
        await withCheckedContinuation { continuation in
            let end = state.withLock { state -> End? in
                if state.end == nil { state.endWaiters.append(continuation) }
                return state.end
            }
            if let end { continuation.resume(returning: end) }
        }
    }
}
