import Foundation

/// The download slots: at most `maxTotal` downloads at once and `maxPerHost` to one host; waiting downloads start
/// in priority order, the oldest first among equals.
struct DownloadQueue {
    struct Waiter {
        var id: Int
        var url: URL
        var continuation: CheckedContinuation<Void, any Error>
    }

    let maxTotal: Int
    let maxPerHost: Int
    private(set) var running = 0
    private var runningPerHost: [String: Int] = [:]
    /// In arrival order, so the first of equal priority is the oldest.
    private(set) var waiting: [Waiter] = []

    init(maxTotal: Int, maxPerHost: Int) {
        self.maxTotal = maxTotal
        self.maxPerHost = maxPerHost
    }

    static func host(of url: URL) -> String { url.host ?? "" }

    func canStart(_ url: URL) -> Bool {
        running < maxTotal && runningPerHost[Self.host(of: url), default: 0] < maxPerHost
    }

    mutating func start(_ url: URL) {
        running += 1
        runningPerHost[Self.host(of: url), default: 0] += 1
    }

    mutating func finish(_ url: URL) {
        running -= 1
        runningPerHost[Self.host(of: url), default: 1] -= 1
    }

    mutating func enqueue(_ waiter: Waiter) {
        waiting.append(waiter)
    }

    /// Takes a waiter out (its task was cancelled).
    mutating func remove(id: Int) -> Waiter? {
        guard let i = waiting.firstIndex(where: { $0.id == id }) else { return nil }
        return waiting.remove(at: i)
    }

    /// Starts the most urgent waiters that fit, and returns them to be resumed.
    mutating func startWaiters(priority: (URL) -> RequestPriority) -> [Waiter] {
        var started: [Waiter] = []
        while running < maxTotal {
            var best: (index: Int, priority: RequestPriority)?
            for (i, waiter) in waiting.enumerated() where canStart(waiter.url) {
                let p = priority(waiter.url)
                if best == nil || p > best!.priority { best = (i, p) }
            }
            guard let best else { break }
            let waiter = waiting.remove(at: best.index)
            start(waiter.url)
            started.append(waiter)
        }
        return started
    }
}
