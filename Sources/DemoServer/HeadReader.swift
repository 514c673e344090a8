import Basics
import Glibc

/// The bytes a connection sent that are not yet read as a request, and where the search for the end of a head
/// stopped: a head sent a byte at a time is searched once, not again from its start at every byte.
struct HeadReader {
    private(set) var pending: [UInt8] = []
    /// Where the search for `\r\n\r\n` resumes: every earlier start was tried.
    private var searched = 0
    /// One buffer for every read on the connection.
    private var chunk = [UInt8](repeating: 0, count: 16 << 10)

    /// Where the head's blank line starts, or nil when it has not arrived.
    mutating func endOfHead() -> Int? {
        guard pending.count >= 4 else { return nil }
        for i in searched...(pending.count - 4)
        where pending[i] == 13 && pending[i + 1] == 10 && pending[i + 2] == 13 && pending[i + 3] == 10 {
            return i
        }
        searched = pending.count - 3
        return nil
    }

    /// Drops the first `count` bytes (a head read, or a body skipped).
    mutating func consume(_ count: Int) {
        pending.removeFirst(count)
        searched = 0
    }

    /// Appends what the connection has, up to 16 KB, waiting until `deadline` at most; false when it is closed,
    /// failed, or sent nothing by then.
    mutating func receive(from connection: Int32, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let milliseconds = pollMilliseconds(until: deadline)
            guard milliseconds > 0 else { return false }
            var watch = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watch, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            pending.append(contentsOf: chunk[..<count])
            return true
        }
    }

    /// Reads and drops a body of `count` bytes by `deadline`; false when the connection ends first.
    mutating func skip(_ count: Int, on connection: Int32, until deadline: ContinuousClock.Instant) -> Bool {
        while pending.count < count {
            guard receive(from: connection, until: deadline) else { return false }
        }
        consume(count)
        return true
    }
}
