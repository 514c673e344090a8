import Table

/// Waits for a table's state to reach a condition, woken by its `onChange` notifications (no polling, no sleeps).
@MainActor
public final class ChangeWaiter {
    private struct Waiter {
        var id: Int
        var condition: () -> Bool
        var continuation: CheckedContinuation<Bool, Never>
    }
    private var waiters: [Waiter] = []
    private var nextID = 0

    public init(_ table: TableController) {
        table.onChange { [weak self] in self?.check() }
    }

    /// Returns true once `condition` holds, or false after `timeout`: a safety net so a broken build fails instead
    /// of hanging. The condition is checked on every change, never on a timer.
    @discardableResult
    public func until(timeout: Duration = Deadline.generous, _ condition: @escaping () -> Bool) async -> Bool {
        if condition() { return true }
        nextID += 1
        let id = nextID
        return await withCheckedContinuation { continuation in
            waiters.append(Waiter(id: id, condition: condition, continuation: continuation))
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                self?.expire(id)
            }
        }
    }

    /// Checks the waiting conditions now: for changes the table does not announce (a test double's own state).
    public func poke() {
        check()
    }

    /// Makes a fake loader's events wake this waiter.
    public func observe(_ loader: FakeThumbnailLoader) {
        loader.onEvent = { [weak self] in
            Task { @MainActor in self?.poke() }
        }
    }

    private func check() {
        var remaining: [Waiter] = []
        for waiter in waiters {
            if waiter.condition() { waiter.continuation.resume(returning: true) } else { remaining.append(waiter) }
        }
        waiters = remaining
    }

    private func expire(_ id: Int) {
        guard let i = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: i).continuation.resume(returning: false)
    }
}
