import Items

/// Loads the list's pages from its source, one at a time, each when its turn comes (`PagePace`), and hands each
/// result back on the main actor.
@MainActor
final class PageLoader {
    let source: any ItemSource
    private var task: Task<Void, Never>?
    private var pace = PagePace()
    /// The clock the pace is read on (tests bring their own).
    private let clock: @Sendable () -> ContinuousClock.Instant
    /// When the page under way may be asked for, while it waits for its turn.
    private(set) var waitingUntil: ContinuousClock.Instant?

    init(source: any ItemSource, clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.source = source
        self.clock = clock
    }

    /// Loads the page at `cursor` when its turn comes; `done` gets the page or the error (not a cancellation).
    func load(_ cursor: PageCursor, done: @escaping @MainActor (Result<ItemPage, any Error>) -> Void) {
        let source = self.source, clock = self.clock
        let turn = pace.take(at: clock())
        waitingUntil = turn
        task = Task { [weak self] in
            if let turn {
                // Read on `clock`, so a test's clock decides when the turn has come; slept in real time meanwhile.
                while clock() < turn {
                    guard (try? await Task.sleep(for: turn - clock())) != nil else { return }
                }
                self?.waitingUntil = nil
            }
            do {
                done(.success(try await source.page(at: cursor)))
            } catch is CancellationError {
                return
            } catch {
                done(.failure(error))
            }
        }
    }

    /// Stops the page under way.
    func cancel() {
        task?.cancel()
        waitingUntil = nil
    }
}
