import Cells
import Codecs
import Foundation
import Pipeline
import Pixels
import Synchronization

/// A `DataLoading` double whose loads wait until the test answers them, so a test decides the order in which
/// downloads finish. It records what started and what was cancelled, and wakes waiters on each event.
public final class FakeDataLoader: DataLoading, @unchecked Sendable {
    // @unchecked: all mutable state is in `_state`, touched only under `lock`.
    public struct Pending {
        var id: Int
        var url: URL
        var continuation: CheckedContinuation<LoadedData, any Error>
    }
    public struct State {
        var nextID = 0
        public var pending: [Pending] = []
        public var started: [URL] = []
        public var cancelled: [URL] = []
        var answersAtOnce = false
        var cancelledIDs: Set<Int> = []
        var waiters: [(id: UUID, condition: @Sendable (State) -> Bool, continuation: CheckedContinuation<Bool, Never>)] = []
    }
    private let lock = NSLock()
    private var _state = State()

    public init() {}

    /// From now on, answers every load at once (the pending ones too): to let a simulation settle.
    public func answerEverything() {
        withState { $0.answersAtOnce = true }
        while !pendingURLs.isEmpty { answer() }
    }

    public var started: [URL] { withState { $0.started } }
    public var cancelled: [URL] { withState { $0.cancelled } }
    public var pendingURLs: [URL] { withState { $0.pending.map(\.url) } }

    public func load(_ url: URL, limits: LoadLimits, received: @escaping @Sendable (Int) -> Void) async throws -> LoadedData {
        let id = withState { s in
            s.nextID += 1
            return s.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Deciding under the lock: a load that starts while `answerEverything` drains is never left waiting.
                enum Outcome { case wait, cancelled, answered }
                let outcome = update { s -> Outcome in
                    s.started.append(url)
                    if s.cancelledIDs.contains(id) { return .cancelled }
                    if s.answersAtOnce { return .answered }
                    s.pending.append(Pending(id: id, url: url, continuation: continuation))
                    return .wait
                }
                switch outcome {
                case .wait: break
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .answered: continuation.resume(returning: LoadedData(bytes: Array(url.absoluteString.utf8)))
                }
            }
        } onCancel: {
            let continuation = update { s -> CheckedContinuation<LoadedData, any Error>? in
                s.cancelledIDs.insert(id)
                guard let i = s.pending.firstIndex(where: { $0.id == id }) else { return nil }
                s.cancelled.append(s.pending[i].url)
                return s.pending.remove(at: i).continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Answers the oldest pending load of `url` (or of any URL) with bytes naming it, or with an error.
    public func answer(_ url: URL? = nil, with error: LoadError? = nil) {
        let pending = update { s -> Pending? in
            guard let i = s.pending.firstIndex(where: { url == nil || $0.url == url }) else { return nil }
            return s.pending.remove(at: i)
        }
        guard let pending else { return }
        if let error {
            pending.continuation.resume(throwing: error)
        } else {
            pending.continuation.resume(returning: LoadedData(bytes: Array(pending.url.absoluteString.utf8)))
        }
    }

    /// Waits until the loader's state satisfies a condition, checked on every event (no polling). Returns false
    /// after `timeout`: a safety net so a broken build fails instead of hanging.
    @discardableResult
    public func waitUntil(timeout: Duration = Deadline.generous,
                          _ condition: @escaping @Sendable (State) -> Bool) async -> Bool {
        let id = UUID()
        let expiry = Task {
            try await Task.sleep(for: timeout)
            let waiter = withState { s in s.waiters.firstIndex { $0.id == id }.map { s.waiters.remove(at: $0) } }
            waiter?.continuation.resume(returning: false)
        }
        defer { expiry.cancel() }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let now = withState { s -> Bool in
                if condition(s) { return true }
                s.waiters.append((id, condition, continuation))
                return false
            }
            if now { continuation.resume(returning: true) }
        }
    }

    @discardableResult
    public func waitForStarts(_ count: Int) async -> Bool {
        await waitUntil { $0.started.count >= count }
    }

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&_state)
    }

    /// Changes the state, then wakes the waiters whose condition now holds.
    private func update<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        let result = body(&_state)
        let snapshot = _state
        var ready: [CheckedContinuation<Bool, Never>] = []
        _state.waiters = snapshot.waiters.filter { waiter in
            guard waiter.condition(snapshot) else { return true }
            ready.append(waiter.continuation)
            return false
        }
        lock.unlock()
        ready.forEach { $0.resume(returning: true) }
        return result
    }
}

extension ImageProcessing {
    /// Decodes the fake loader's bytes (a URL's text) into a 1x1 bitmap and renders that URL's name as the picture,
    /// so a test reads which image a grid shows. Bytes starting with "bad" fail to decode.
    public static let fake = ImageProcessing(
        decodeTarget: { PixelSize(width: $0.size.columns, height: $0.size.rows) },
        fit: { _, request in
            PictureFit(grid: request.size, decodeSize: PixelSize(width: request.size.columns, height: request.size.rows))
        },
        decode: { image, _ throws(DecodeError) in
            let text = String(decoding: image.bytes, as: UTF8.self)
            if text.contains("/bad") { throw DecodeError.corrupt(.png, reason: "not a picture") }
            return DecodedImage(bitmap: Bitmap(width: 1, height: 1, fill: RGBA(r: 0, g: 0, b: 0)), format: .png,
                                originalWidth: 1, originalHeight: 1, warning: text)
        },
        render: { image, fit, _ in
            var cells = CellBuffer(width: fit.grid.columns, height: fit.grid.rows, fill: Cell("."))
            cells.put(URL(string: image.warning ?? "")?.lastPathComponent ?? "?", x: 0, y: 0)
            return cells
        })
}
