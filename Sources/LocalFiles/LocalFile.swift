import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads files on this machine without ever blocking on something that is not a file.
///
/// A FIFO named `x.jpg`, a symlink to `/dev/tty` or a socket would block `open` or `read` forever (or read the
/// user's keystrokes). Here a path is opened with `O_NONBLOCK | O_NOCTTY`, which returns at once for every kind of
/// entry, and only a regular file, as `fstat` sees the opened descriptor (so after following symlinks, with no race
/// between the check and the open), is read.
public enum LocalFile {
    /// What a directory entry is, after following symlinks.
    public enum Kind: Sendable, Equatable, CustomStringConvertible {
        case regular(size: Int)
        case directory
        case fifo
        case characterDevice
        case blockDevice
        case socket
        /// A symlink whose target does not exist (or a loop).
        case brokenLink
        case missing

        init(mode: mode_t, size: Int) {
            switch mode & S_IFMT {
            case S_IFREG: self = .regular(size: size)
            case S_IFDIR: self = .directory
            case S_IFIFO: self = .fifo
            case S_IFCHR: self = .characterDevice
            case S_IFBLK: self = .blockDevice
            case S_IFSOCK: self = .socket
            default: self = .missing
            }
        }

        /// "a FIFO", "a folder", …: how a message names what is there instead of a file.
        public var description: String {
            switch self {
            case .regular: "a regular file"
            case .directory: "a folder"
            case .fifo: "a FIFO (named pipe)"
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .socket: "a socket"
            case .brokenLink: "a symbolic link to nothing"
            case .missing: "nothing (no such file)"
            }
        }
    }

    /// Why a file could not be read, in words a user can act on.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Reason: Sendable, Equatable {
            /// The entry exists but is not a regular file.
            case notARegularFile(Kind)
            /// The file is larger than the limit.
            case tooLarge(size: Int, limit: Int)
            /// A system call failed; the text is strerror's.
            case system(call: String, message: String)
        }
        public var path: LocalPath
        public var reason: Reason

        public var description: String {
            switch reason {
            case .notARegularFile(let kind): "\(path) is not a regular file: it is \(kind)"
            case .tooLarge(let size, let limit): "\(path) is \(size) bytes, over the limit of \(limit)"
            case .system(let call, let message): "cannot read \(path): \(call): \(message)"
            }
        }

        /// The reason alone, without the path: "not a regular file (a FIFO (named pipe))", "permission denied".
        public var shortReason: String {
            switch reason {
            case .notARegularFile(let kind): "not a regular file (\(kind))"
            case .tooLarge(let size, let limit): "\(size) bytes, over the limit of \(limit)"
            case .system(_, let message): message
            }
        }
    }

    /// What the path names, following symlinks; never blocks on FIFOs or devices (it only calls `stat`).
    public static func kind(of path: LocalPath) -> Kind {
        status(of: path).kind
    }

    /// What the path names and when it was last modified (nil when there is nothing there), from one `stat`.
    public static func status(of path: LocalPath) -> (kind: Kind, modified: Date?) {
        var info = stat()
        if path.withCString({ stat($0, &info) }) == 0 {
            let modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
            return (Kind(mode: info.st_mode, size: Int(info.st_size)), modified)
        }
        if errno == ENOENT || errno == ELOOP {
            var linkInfo = stat()
            if path.withCString({ lstat($0, &linkInfo) }) == 0 { return (.brokenLink, nil) }
        }
        return (.missing, nil)
    }

    /// The whole file, if it is a regular file of at most `limit` bytes.
    ///
    /// - Parameter received: called with the size of each chunk as it is read.
    public static func read(_ path: LocalPath, limit: Int, received: (Int) -> Void = { _ in })
        throws(Failure) -> [UInt8]
    {
        let fd = try openRegular(path)
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw systemFailure(path, "fstat") }
        let size = Int(info.st_size)
        guard size <= limit else { throw Failure(path: path, reason: .tooLarge(size: size, limit: limit)) }
        return try readAll(fd, path: path, expected: size, limit: limit, received: received)
    }

    /// At most `count` bytes from the start of the file, if it is a regular file.
    public static func readPrefix(_ path: LocalPath, count: Int) throws(Failure) -> [UInt8] {
        let fd = try openRegular(path)
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw systemFailure(path, "fstat") }
        return try readAll(fd, path: path, expected: min(count, Int(info.st_size)), limit: count, truncating: true,
                           received: { _ in })
    }

    /// Opens `path` for reading without blocking, and keeps the descriptor only if it is a regular file.
    private static func openRegular(_ path: LocalPath) throws(Failure) -> Int32 {
        var fd: Int32
        repeat {
            fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
        } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw systemFailure(path, "open") }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let failure = systemFailure(path, "fstat")
            close(fd)
            throw failure
        }
        let kind = Kind(mode: info.st_mode, size: Int(info.st_size))
        guard case .regular = kind else {
            close(fd)
            throw Failure(path: path, reason: .notARegularFile(kind))
        }
        return fd
    }

    private static func readAll(_ fd: Int32, path: LocalPath, expected: Int, limit: Int, truncating: Bool = false,
                                received: (Int) -> Void) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, min(expected, limit)))
        var count = 0
        var chunk = [UInt8](repeating: 0, count: 0)
        while true {
            if count == bytes.count {
                if truncating { break }
                // The file grew since it was measured: read on in chunks, to the limit.
                if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: 64 << 10) }
                let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n == 0 { break }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw systemFailure(path, "read")
                }
                guard count + n <= limit else {
                    throw Failure(path: path, reason: .tooLarge(size: count + n, limit: limit))
                }
                bytes.append(contentsOf: chunk[0..<n])
                count += n
                received(n)
                continue
            }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw systemFailure(path, "read")
            }
            count += n
            received(n)
        }
        if count < bytes.count { bytes.removeSubrange(count...) }
        return bytes
    }

    private static func systemFailure(_ path: LocalPath, _ call: String) -> Failure {
        let code = errno
        let message: String
        switch code {
        case ENOENT: message = "no such file"
        case EACCES, EPERM: message = "permission denied"
        default: message = String(cString: strerror(code))
        }
        return Failure(path: path, reason: .system(call: call, message: message))
    }
}

/// Runs blocking calls (file system reads, directory walks) on threads of their own, off Swift's cooperative pool, so
/// a slow disk or network mount never stalls the tasks that draw the screen and talk to servers.
public enum BlockingIO {
    private static let queue = DispatchQueue(label: "thumbtable.blocking-io", qos: .userInitiated,
                                             attributes: .concurrent)

    /// The result of `work`, run on the blocking-I/O queue.
    public static func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(E) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
