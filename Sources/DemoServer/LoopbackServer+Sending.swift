import Basics
import Glibc
import HTTP

/// Sending a response the way it asks: late, slowly, cut off mid-body or stalled.
extension LoopbackServer {
    /// Writes the head, then the body as the response says (paced, cut, stalled, chunked). Nil when the server
    /// stopped during a stall.
    func send(_ response: Response, to connection: Int32, withBody: Bool) -> Outcome? {
        var head = "HTTP/1.1 \(response.status) \(httpReasonPhrase(response.status))\r\n"
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        let namesLength = response.headers.keys.contains { $0.lowercased() == "content-length" }
        if response.chunked {
            head += "Transfer-Encoding: chunked\r\n"
        } else if !namesLength {
            head += "Content-Length: \(response.body.count)\r\n"
        }
        head += "\r\n"
        guard write(Array(head.utf8), on: connection) else { return .closedByClient }
        guard withBody else { return .completed }

        let body = response.body
        let chunkSize = response.pacing?.chunkSize ?? 64 << 10
        var offset = 0
        while offset < body.count {
            if let dropAfter = response.dropAfter, offset >= dropAfter { return .droppedByServer }
            if let stallAfter = response.stallAfter, offset >= stallAfter { return waitForClose(connection) }
            if offset > 0, let interval = response.pacing?.interval, !pause(for: interval, on: connection) {
                return isStopped ? nil : .closedByClient
            }
            var end = min(body.count, offset + chunkSize)
            if let dropAfter = response.dropAfter { end = min(end, dropAfter) }
            if let stallAfter = response.stallAfter { end = min(end, stallAfter) }
            var bytes = Array(body[offset..<end])
            if response.chunked { bytes = Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10] }
            guard write(bytes, on: connection) else { return .closedByClient }
            offset = end
        }
        if response.chunked, !write(Array("0\r\n\r\n".utf8), on: connection) { return .closedByClient }
        return .completed
    }

    /// A stalled body: reads (and drops) whatever comes until the client closes the connection, or the server's
    /// stop shuts it down.
    func waitForClose(_ connection: Int32) -> Outcome? {
        var scratch = [UInt8](repeating: 0, count: 4 << 10)
        while true {
            let count = scratch.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count > 0 { continue }
            if count < 0, errno == EINTR, !isStopped { continue }
            return isStopped ? nil : .closedByClient
        }
    }

    func write(_ bytes: [UInt8], on connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a client that has gone is an error here, not a SIGPIPE that ends the process.
            let sent = bytes.withUnsafeBytes {
                Glibc.send(connection, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Waits `duration` on the connection's thread; false when the connection broke meanwhile: the server stopped,
    /// or the client reset it. A client that only closes its end is noticed by the next write.
    func pause(for duration: Duration, on connection: Int32) -> Bool {
        guard duration > .zero else { return true }
        let end = ContinuousClock.now + duration
        while true {
            // Rounded up, so that a wait never ends early.
            let milliseconds = pollMilliseconds(until: end)
            guard milliseconds > 0 else { return true }
            // No events asked for: poll returns on the timeout, or on POLLHUP, which only both ends shut (our
            // stop) raises.
            var watch = pollfd(fd: connection, events: 0, revents: 0)
            let ready = poll(&watch, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready != 0 { return false }
        }
    }
}
