import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Writes bytes into a new file in a folder, under a name no entry there has yet: `name.ext`, else `name-1.ext`,
/// `name-2.ext`… It never overwrites and never follows a symlink: the file is created with `O_CREAT | O_EXCL`
/// relative to the opened folder, which fails on any existing entry, a dangling symlink included, so a race cannot
/// replace another file. A write that fails part way removes what it wrote.
///
/// Blocking calls: run it off the cooperative pool (`BlockingIO`).
public enum NewFileWriter {
    /// The most `-N` names tried before giving up.
    public static let maxAttempts = 1000

    /// Why a file could not be written, in words a user can act on.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var folder: String
        public var reason: String
        public var description: String { "cannot write in \(folder): \(reason)" }
    }

    /// Writes `bytes` to a new file named from `stem` and `fileExtension` in `folder`; returns the name used.
    public static func write(_ bytes: [UInt8], folder: String, stem: String, fileExtension: String)
        throws(Failure) -> String
    {
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw failure(folder, call: "the folder", errno) }
        defer { close(directory) }
        for attempt in 0..<maxAttempts {
            let name = attempt == 0 ? "\(stem).\(fileExtension)" : "\(stem)-\(attempt).\(fileExtension)"
            let fd = openat(directory, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd < 0 {
                let code = errno
                if code == EEXIST { continue }
                // The folder was opened, so it exists: ENOENT here is a file system that makes no files on request
                // (/proc, /sys), not a missing folder.
                if code == ENOENT {
                    throw Failure(folder: folder, reason: "creating \(name): this folder takes no new files (a system "
                                  + "folder such as /proc or /sys); give --save-dir another")
                }
                throw failure(folder, call: "creating \(name)", code)
            }
            do throws(Failure) {
                try writeAll(bytes, to: fd, folder: folder, name: name)
            } catch {
                close(fd)
                unlinkat(directory, name, 0)
                throw error
            }
            // close reports what a network file system could not store.
            guard close(fd) == 0 else {
                let code = errno
                unlinkat(directory, name, 0)
                throw failure(folder, call: "closing \(name)", code)
            }
            return name
        }
        throw Failure(folder: folder, reason: "\(stem).\(fileExtension) and \(maxAttempts - 1) numbered names "
                      + "are all taken; move some away or choose another folder")
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, folder: String, name: String) throws(Failure) {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(folder, call: "writing \(name)", errno)
            }
            written += n
        }
    }

    private static func failure(_ folder: String, call: String, _ code: Int32) -> Failure {
        let reason: String
        switch code {
        case ENOENT: reason = "\(call): no such folder; create it or give --save-dir another"
        case ENOTDIR: reason = "\(call): not a folder; give --save-dir a folder"
        case EACCES, EPERM: reason = "\(call): permission denied; give --save-dir a folder you can write in"
        case EROFS: reason = "\(call): read-only file system; give --save-dir a writable folder"
        case ENOSPC, EDQUOT: reason = "\(call): the disk is full (or over quota); free some space"
        default: reason = "\(call): \(String(cString: strerror(code)))"
        }
        return Failure(folder: folder, reason: reason)
    }
}
