import Cells
import Foundation
import Table

/// A thumbnail loader for tests: the picture of `…/N.png` is a block whose cells spell `#N`, so a test can read from
/// a frame which image a row shows. Loads finish at once, or, when `gated`, only when the test releases them, so
/// a test decides the order in which late results arrive.
public final class FakeThumbnailLoader: ThumbnailLoading, @unchecked Sendable {
    // @unchecked: all mutable state is only touched under `lock`.
    private let lock = NSLock()
    private let gated: Bool
    private var waiting: [(id: Int, url: URL, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID = 0
    private var cancelledIDs: Set<Int> = []
    private var _onEvent: (@Sendable () -> Void)?
    private var _started: [URL] = []
    private var _cancelled = 0
    private var _cache: [URL: CellBuffer] = [:]
    private var _prefetched: [[URL]] = []
    private var _removed: [URL] = []
    private var _latency: Duration?
    /// Keep finished pictures in a memory cache, as the pipeline does, so `cachedThumbnail` answers.
    public let caches: Bool
    /// URLs whose load fails with a readable reason.
    public let failing: Set<String>

    public init(gated: Bool = false, failing: Set<String> = [], caches: Bool = false) {
        self.gated = gated
        self.failing = failing
        self.caches = caches
    }

    /// Every prefetch set the table asked for, in order.
    public var prefetched: [[URL]] { lock.withLock { _prefetched } }
    /// URLs removed from the cache.
    public var removed: [URL] { lock.withLock { _removed } }

    /// What the loader says a load typically takes (`typicalLatency`); nil until a test sets it.
    public var latency: Duration? {
        get { lock.withLock { _latency } }
        set { lock.withLock { _latency = newValue } }
    }

    public var typicalLatency: Duration? { latency }

    public func thumbnail(_ url: URL, size: CellSize) -> ThumbnailLoad {
        if let cells = lock.withLock({ _cache[url] }) { return .ready(cells) }
        return .pending { try await self.load(url, size: size) }
    }

    public func prefetch(_ urls: [URL], size: CellSize) {
        lock.withLock { _prefetched.append(urls) }
    }

    public func removeFromCache(_ url: URL) {
        lock.withLock {
            _removed.append(url)
            _cache[url] = nil
        }
    }

    public var started: [URL] { lock.withLock { _started } }
    public var cancelled: Int { lock.withLock { _cancelled } }
    public var pending: [URL] { lock.withLock { waiting.map(\.url) } }

    /// Called after a load starts waiting, is cancelled or finishes: a test's waiter checks its condition then.
    public var onEvent: (@Sendable () -> Void)? {
        get { lock.withLock { _onEvent } }
        set { lock.withLock { _onEvent = newValue } }
    }

    private func load(_ url: URL, size: CellSize) async throws -> CellBuffer {
        let id = lock.withLock { () -> Int in
            _started.append(url)
            nextID += 1
            return nextID
        }
        defer { onEvent?() }
        if gated {
            // A cancelled load ends at once with CancellationError, as a real download does.
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                    let cancelledAlready = lock.withLock { () -> Bool in
                        if cancelledIDs.contains(id) { return true }
                        waiting.append((id, url, c))
                        return false
                    }
                    if cancelledAlready { c.resume(throwing: CancellationError()) }
                    onEvent?()
                }
            } onCancel: {
                let continuation = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
                    _cancelled += 1
                    cancelledIDs.insert(id)
                    guard let i = waiting.firstIndex(where: { $0.id == id }) else { return nil }
                    return waiting.remove(at: i).continuation
                }
                continuation?.resume(throwing: CancellationError())
            }
        }
        try Task.checkCancellation()
        if failing.contains(url.lastPathComponent) {
            throw FakeLoadError(description: "not a PNG file: \(url.lastPathComponent)")
        }
        let picture = Self.picture(for: url, size: size)
        if caches { lock.withLock { _cache[url] = picture } }
        return picture
    }

    /// Lets every waiting load finish, in the given order of URLs (default: the order they started).
    public func releaseAll(reversed: Bool = false) {
        let all = lock.withLock { () -> [CheckedContinuation<Void, any Error>] in
            defer { waiting.removeAll() }
            return waiting.map(\.continuation)
        }
        for c in reversed ? all.reversed() : all { c.resume() }
    }

    /// Lets the waiting loads of these URLs finish, the others wait on: a test decides which results come late.
    /// Returns false when none was waiting.
    @discardableResult
    public func release(_ urls: Set<URL>) -> Bool {
        let chosen = lock.withLock { () -> [CheckedContinuation<Void, any Error>] in
            let (now, later) = (waiting.filter { urls.contains($0.url) }, waiting.filter { !urls.contains($0.url) })
            waiting = later
            return now.map(\.continuation)
        }
        for c in chosen { c.resume() }
        return !chosen.isEmpty
    }

    /// Lets the waiting loads of one URL finish. Returns false when none was waiting.
    @discardableResult
    public func release(_ url: URL) -> Bool {
        release(Set([url]))
    }

    /// The picture the fake draws for a URL: `#N` on the first line, then dots.
    public static func picture(for url: URL, size: CellSize) -> CellBuffer {
        var buffer = CellBuffer(width: size.columns, height: size.rows, fill: Cell("."))
        buffer.put(label(for: url), x: 0, y: 0)
        return buffer
    }

    public static func label(for url: URL) -> String {
        "#" + url.deletingPathExtension().lastPathComponent
    }

    public struct FakeLoadError: Error, CustomStringConvertible {
        public var description: String
    }
}
