#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a `readUntil` ended.
public enum ReadEnd: Sendable, Equatable {
    /// The reader took what it needed.
    case enough
    /// The descriptor has no more to give: end of file, or a read error.
    case closed
    /// The deadline passed (or poll failed) with the descriptor still open.
    case deadline
}

/// Reads `descriptor` as bytes arrive, handing each chunk to `take`, until `take` answers false (enough), the
/// descriptor closes, or `deadline` passes: the one poll-and-read loop for answers that must come in time (a
/// terminal's replies, a command's output). Interrupted calls are retried.
public func readUntil(_ deadline: ContinuousClock.Instant, from descriptor: Int32,
                      _ take: (ArraySlice<UInt8>) -> Bool) -> ReadEnd {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let milliseconds = pollMilliseconds(until: deadline)
        guard milliseconds > 0 else { return .deadline }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, milliseconds)
        if ready < 0 && errno == EINTR { continue }
        guard ready > 0 else { return .deadline }
        let count = read(descriptor, &buffer, buffer.count)
        if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
        guard count > 0 else { return .closed }
        if !take(buffer[..<count]) { return .enough }
    }
}

/// Milliseconds for poll(2) until `deadline`: rounded up, so a poll never returns before the deadline only to be
/// asked again for 0 ms; 0 once it has passed.
public func pollMilliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
    let left = deadline - ContinuousClock.now
    guard left > .zero else { return 0 }
    let (seconds, attoseconds) = left.components
    let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: milliseconds)
}
