import Synchronization

/// A least-recently-used cache that evicts by cost (bytes), safe to use from any thread.
///
/// Reads are synchronous so the table can draw a row it has seen before in the same frame, without a spinner.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// A doubly linked list threaded through an array: O(1) lookup, touch, insert and evict.
    private struct State {
        struct Node {
            var key: Key
            var value: Value
            var cost: Int
            var newer: Int?
            var older: Int?
        }
        var nodes: [Node?] = []
        var free: [Int] = []
        var index: [Key: Int] = [:]
        var newest: Int?
        var oldest: Int?
        var totalCost = 0

        mutating func unlink(_ i: Int) {
            let node = nodes[i]!
            if let newer = node.newer { nodes[newer]!.older = node.older } else { newest = node.older }
            if let older = node.older { nodes[older]!.newer = node.newer } else { oldest = node.newer }
            nodes[i]!.newer = nil
            nodes[i]!.older = nil
        }

        mutating func pushNewest(_ i: Int) {
            nodes[i]!.older = newest
            nodes[i]!.newer = nil
            if let newest { nodes[newest]!.newer = i }
            newest = i
            if oldest == nil { oldest = i }
        }

        mutating func remove(_ i: Int) {
            unlink(i)
            let node = nodes[i]!
            totalCost -= node.cost
            index[node.key] = nil
            nodes[i] = nil
            free.append(i)
        }
    }

    private let state = Mutex(State())
    /// The most the cached values may cost together; the least recently used go first.
    public let costLimit: Int

    public init(costLimit: Int) {
        self.costLimit = max(0, costLimit)
    }

    /// The value for a key, marking it as just used.
    public func value(for key: Key) -> Value? {
        state.withLock { s in
            guard let i = s.index[key] else { return nil }
            s.unlink(i)
            s.pushNewest(i)
            return s.nodes[i]!.value
        }
    }

    /// Whether a key is cached, without marking it as used.
    public func contains(_ key: Key) -> Bool {
        state.withLock { $0.index[key] != nil }
    }

    /// Stores a value; a value costing more than the whole limit is not kept.
    public func set(_ value: Value, for key: Key, cost: Int) {
        state.withLock { s in
            if let i = s.index[key] { s.remove(i) }
            guard cost <= costLimit else { return }
            let node = State.Node(key: key, value: value, cost: cost)
            let i: Int
            if let reused = s.free.popLast() {
                s.nodes[reused] = node
                i = reused
            } else {
                s.nodes.append(node)
                i = s.nodes.count - 1
            }
            s.index[key] = i
            s.pushNewest(i)
            s.totalCost += cost
            while s.totalCost > costLimit, let oldest = s.oldest { s.remove(oldest) }
        }
    }

    public func removeValue(for key: Key) {
        state.withLock { s in
            if let i = s.index[key] { s.remove(i) }
        }
    }

    /// The entries whose key matches, without marking them as used.
    public func entries(where matches: (Key) -> Bool) -> [(key: Key, value: Value)] {
        state.withLock { s in
            s.index.compactMap { key, i in matches(key) ? (key, s.nodes[i]!.value) : nil }
        }
    }

    /// Removes every entry whose key matches.
    public func removeAll(where shouldRemove: (Key) -> Bool) {
        state.withLock { s in
            for (key, i) in s.index where shouldRemove(key) { s.remove(i) }
        }
    }

    /// Removes the least recently used entries until the rest cost at most `cost`.
    public func trim(toCost cost: Int) {
        state.withLock { s in
            while s.totalCost > max(0, cost), let oldest = s.oldest { s.remove(oldest) }
        }
    }

    public var count: Int { state.withLock { $0.index.count } }
    public var totalCost: Int { state.withLock { $0.totalCost } }
}
