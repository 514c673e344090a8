/// Decides each request's delay and fault from the seed, the request's URL and how many times that URL was asked
/// for: so a run is repeatable whatever order concurrent requests arrive in. The demo server draws its latency and
/// faults from it, and the tests' server its latency.
public struct FaultPlan: Sendable {
    public enum Fault: Sendable, Equatable {
        case none
        /// HTTP 500 with a JSON body.
        case serverError
        /// The headers promise the whole body; the connection is dropped after half of it.
        case resetMidBody
    }

    public struct Decision: Sendable, Equatable {
        public var delay: Duration
        public var fault: Fault
    }

    /// The least delay of a request.
    public var latency: Duration
    /// Up to this much more, drawn per request.
    public var jitter: Duration
    /// The share of requests (0...1) that fail: half with a 500, half with a connection dropped mid-body.
    public var failRate: Double
    public var seed: UInt64

    public init(latency: Duration, jitter: Duration, failRate: Double, seed: UInt64) {
        self.latency = latency
        self.jitter = jitter
        self.failRate = failRate
        self.seed = seed
    }

    /// What happens to the `attempt`-th request (from 1) for `key` (the path and query). Whether a URL fails is drawn
    /// once for the URL: a failing one fails its first `failingAttempts` requests, so that a client's automatic
    /// retries can be outlasted and the failure seen, and answers after that.
    public func decide(key: String, attempt: Int, failingAttempts: Int = 1) -> Decision {
        var random = SplitMix64(seed: seed ^ Self.fnv1a(key) &+ UInt64(attempt) &* 0x9E37_79B9_7F4A_7C15)
        let delay = latency + jitter * random.nextFraction()
        var perURL = SplitMix64(seed: seed ^ Self.fnv1a(key))
        let failing = perURL.nextFraction() < failRate && attempt <= failingAttempts
        let fault: Fault = failing ? (random.next() & 1 == 0 ? .serverError : .resetMidBody) : .none
        return Decision(delay: delay, fault: fault)
    }

    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}

/// A small seeded generator (SplitMix64): the same seed gives the same sequence. The demo's faults, the test
/// server's latencies and the reuse simulation's scroll sequences all draw from it.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<1.
    public mutating func nextFraction() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}
