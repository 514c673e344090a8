import FoundationEssentials
import Synchronization

/// The download slots: at most `maxTotal` downloads at once and `maxPerHost` to one host; waiting downloads start
/// in priority order, the oldest first among equals.
///
/// `reserved` slots (in all, and to each host) are kept for visible rows: prefetches and the batch together never
/// hold more than the others, so however many of their servers never answer, a row on screen finds a slot. A
/// download that still cannot start may preempt one that has received nothing for a while (see `preemption`): a
/// less urgent one, or an equally urgent one that has lost no fewer turns, so that rows on screen whose servers
/// never answer take turns with the other rows on screen instead of holding every slot until the stall timeout. A
/// download gives up its slot to an equal at most `maxTurnsLost` times; a retry has had its turns. Among equals,
/// those that lost fewer turns start first.
struct DownloadQueue {
    struct Waiter {
        var id: Int
        var url: URL
        /// How many times the download gave its slot up; `maxTurnsLost` for a retry.
        var turnsLost: Int
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// A download holding a slot.
    struct Running {
        var url: URL
        var activity: DownloadActivity
        /// Stops the attempt so its slot goes to another download; set to nil once called.
        var preempt: (@Sendable () -> Void)?
    }

    let maxTotal: Int
    let maxPerHost: Int
    /// Slots, in all and to one host, that only visible downloads may take.
    let reservedTotal: Int
    let reservedPerHost: Int
    private(set) var running: [Int: Running] = [:]
    private var runningPerHost: [String: Int] = [:]
    /// In arrival order, so the first of equal priority is the oldest.
    private(set) var waiting: [Waiter] = []
    /// The last id handed out for a download's turn at a slot.
    private var lastID = 0

    init(maxTotal: Int, maxPerHost: Int) {
        self.maxTotal = maxTotal
        self.maxPerHost = maxPerHost
        reservedTotal = Self.reserve(of: maxTotal)
        reservedPerHost = Self.reserve(of: maxPerHost)
    }

    /// A third of the slots (at least one) are kept for visible rows; a single slot is not kept, or prefetching
    /// could never run: there preemption alone makes way.
    static func reserve(of slots: Int) -> Int {
        slots < 2 ? 0 : max(1, slots / 3)
    }

    /// How many times a download may give its slot up to an equally urgent one.
    static let maxTurnsLost = 3

    static func host(of url: URL) -> String { url.host ?? "" }

    /// A new id for a download's turn at a slot, waiting or running.
    mutating func newID() -> Int {
        lastID += 1
        return lastID
    }

    /// Whether a download of `priority` may take a slot now. Downloads for rows not on screen count only each other
    /// against the unreserved slots: a prefetch that a row on screen has joined (now visible) leaves its place to
    /// the next prefetch, so warming can run as far ahead as fast scrolling needs while the reserved slots stay free
    /// of it.
    func canStart(_ url: URL, priority: RequestPriority, priorityOf: (URL) -> RequestPriority) -> Bool {
        let host = Self.host(of: url)
        guard running.count < maxTotal, runningPerHost[host, default: 0] < maxPerHost else { return false }
        if priority == .visible { return true }
        var total = 0, onHost = 0
        for download in running.values where priorityOf(download.url) < .visible {
            total += 1
            if Self.host(of: download.url) == host { onHost += 1 }
        }
        return total < maxTotal - reservedTotal && onHost < maxPerHost - reservedPerHost
    }

    mutating func start(_ id: Int, _ url: URL, activity: DownloadActivity) {
        running[id] = Running(url: url, activity: activity)
        runningPerHost[Self.host(of: url), default: 0] += 1
    }

    /// Sets how a running download is stopped when preempted.
    mutating func setPreempt(_ id: Int, _ preempt: @escaping @Sendable () -> Void) {
        running[id]?.preempt = preempt
    }

    mutating func finish(_ id: Int) {
        guard let download = running.removeValue(forKey: id) else { return }
        runningPerHost[Self.host(of: download.url), default: 1] -= 1
    }

    mutating func enqueue(_ waiter: Waiter) {
        waiting.append(waiter)
    }

    /// Takes a waiter out (its task was cancelled).
    mutating func remove(id: Int) -> Waiter? {
        guard let i = waiting.firstIndex(where: { $0.id == id }) else { return nil }
        return waiting.remove(at: i)
    }

    /// Starts the most urgent waiters that fit, and returns them to be resumed. Among equals, those that lost
    /// fewer turns go first, then the oldest.
    mutating func startWaiters(priority: (URL) -> RequestPriority) -> [Waiter] {
        var started: [Waiter] = []
        while running.count < maxTotal {
            var best: (index: Int, rank: (RequestPriority, Int))?
            for (i, waiter) in waiting.enumerated() {
                let p = priority(waiter.url)
                let rank = (p, waiter.turnsLost)
                if canStart(waiter.url, priority: p, priorityOf: priority), best == nil || Self.outranks(rank, best!.rank) {
                    best = (i, rank)
                }
            }
            guard let best else { break }
            let waiter = waiting.remove(at: best.index)
            start(waiter.id, waiter.url, activity: DownloadActivity(turnsLost: waiter.turnsLost))
            started.append(waiter)
        }
        return started
    }

    private static func outranks(_ a: (RequestPriority, Int), _ b: (RequestPriority, Int)) -> Bool {
        a.0 != b.0 ? a.0 > b.0 : a.1 < b.1
    }

    /// What a waiting download can preempt.
    enum Preemption: Equatable {
        /// This running download: preempt it now.
        case now(Int)
        /// None has stalled yet; the first will have at this instant.
        case later(ContinuousClock.Instant)
        /// Nothing it may preempt is running.
        case never
    }

    /// The running download to preempt so that `waiter`, of `priority`, can start: one silent for at least
    /// `stalledAfter` (the longest silent first), less urgent, or as urgent with no fewer turns lost than the
    /// waiter (and fewer than `maxTurnsLost`); on the waiter's host when that host is what is full.
    func preemption(for waiter: Waiter, priority: RequestPriority, now: ContinuousClock.Instant,
                    stalledAfter: Duration, priorityOf: (URL) -> RequestPriority) -> Preemption {
        let host = Self.host(of: waiter.url)
        let hostFull = runningPerHost[host, default: 0] >= maxPerHost
        var best: (id: Int, silentSince: ContinuousClock.Instant)?
        // A download that has just started may not have its `preempt` yet: it counts for when to look again.
        for (id, download) in running where !download.activity.isPreempted {
            let other = priorityOf(download.url)
            let turnsLost = download.activity.turnsLost
            guard other < priority
                || (other == priority && turnsLost < Self.maxTurnsLost && waiter.turnsLost <= turnsLost)
            else { continue }
            guard !hostFull || Self.host(of: download.url) == host else { continue }
            let silentSince = download.activity.lastActivity
            if best == nil || silentSince < best!.silentSince { best = (id, silentSince) }
        }
        guard let best else { return .never }
        if now - best.silentSince >= stalledAfter, running[best.id]?.preempt != nil { return .now(best.id) }
        return .later(max(best.silentSince + stalledAfter, now + .milliseconds(20)))
    }

    /// Marks a download preempted and returns how to stop it.
    mutating func takePreempt(_ id: Int) -> (@Sendable () -> Void)? {
        running[id]?.activity.markPreempted()
        defer { running[id]?.preempt = nil }
        return running[id]?.preempt
    }

    /// Downloads preempted but not yet ended: slots about to be free.
    var slotsBeingFreed: Int { running.values.count { $0.activity.isPreempted } }
}

/// When a running download last received a byte, and whether it was preempted; written from the HTTP thread.
final class DownloadActivity: Sendable {
    /// How many times the download gave its slot up before this attempt (see `DownloadQueue.Waiter`).
    let turnsLost: Int
    private struct State {
        var lastActivity = ContinuousClock.now
        var preempted = false
    }
    private let state = Mutex(State())

    init(turnsLost: Int) {
        self.turnsLost = turnsLost
    }

    var lastActivity: ContinuousClock.Instant { state.withLock { $0.lastActivity } }
    var isPreempted: Bool { state.withLock { $0.preempted } }

    func received() { state.withLock { $0.lastActivity = .now } }
    func markPreempted() { state.withLock { $0.preempted = true } }
}
