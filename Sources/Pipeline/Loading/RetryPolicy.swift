import FoundationEssentials

/// When to try a failed download again: exponential backoff with jitter, honouring the server's Retry-After.
public struct RetryPolicy: Sendable {
    /// Retries after the first attempt (so at most `maxRetries + 1` attempts).
    public var maxRetries: Int
    /// The wait before the first retry; doubled for each further retry.
    public var baseDelay: Duration
    /// No wait is longer than this, Retry-After included.
    public var maxDelay: Duration
    /// Waits for a duration; a test passes one that does not really wait.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// A number in 0..<1 for the jitter.
    public var random: @Sendable () -> Double

    public init(maxRetries: Int = 2, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30),
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.sleep = sleep
        self.random = random
    }

    /// The wait before retry number `retry` (1-based) after `error`, or nil when it must not be retried.
    public func delay(beforeRetry retry: Int, after error: LoadError) -> Duration? {
        guard error.isRetryable, retry <= maxRetries else { return nil }
        if let retryAfter = error.retryAfter { return min(retryAfter, maxDelay) }
        // Full jitter over the upper half: spreads retries of many rows without ever retrying at once.
        let backoff = baseDelay * (1 << (retry - 1))
        return min(backoff * (0.5 + 0.5 * random()), maxDelay)
    }
}
