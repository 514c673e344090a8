#if DEBUG
import Synchronization

/// How many times headers were read in a task and the tasks it starts (`ImageDecoder.header`): a test sets one with
/// `$current.withValue` and reads `count`, to show that a thumbnail's header is read once.
public final class HeaderReadCount: Sendable {
    @TaskLocal public static var current: HeaderReadCount?
    private let reads = Atomic<Int>(0)

    public init() {}

    /// The headers read so far.
    public var count: Int { reads.load(ordering: .relaxed) }

    func add() { reads.add(1, ordering: .relaxed) }
}
#endif
