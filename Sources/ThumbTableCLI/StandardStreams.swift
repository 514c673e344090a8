import Glibc

/// Writes to stdout and stderr straight to their descriptors: all the bytes, through partial writes and signals,
/// with the reason when the stream is gone (a closed pipe, a full disk). FileHandle would need all of Foundation.
enum StandardStreams {
    struct WriteFailure: Error, CustomStringConvertible {
        var description: String
    }

    static func write(_ bytes: [UInt8], to fd: Int32) throws(WriteFailure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw WriteFailure(description: String(cString: strerror(errno)))
            }
            offset += written
        }
    }
}
