import Items

/// Loads the list's pages from its source, one at a time, and hands each result back on the main actor.
@MainActor
final class PageLoader {
    let source: any ItemSource
    private var task: Task<Void, Never>?

    init(source: any ItemSource) {
        self.source = source
    }

    /// Loads the page at `cursor`; `done` gets the page or the error (not a cancellation).
    func load(_ cursor: PageCursor, done: @escaping @MainActor (Result<ItemPage, any Error>) -> Void) {
        let source = self.source
        task = Task {
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
    }
}
