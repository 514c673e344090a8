/// Progress of a batch prefetch (the `P` key): every loaded row's thumbnail fetched into the caches.
public struct BatchProgress: Sendable, Equatable {
    public var total: Int
    public var done = 0
    public var failed = 0
    public var cancelled = false
    public init(total: Int) { self.total = total }
    public var finished: Bool { cancelled || done + failed >= total }
}
