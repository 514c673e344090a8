import Glibc
import Synchronization

/// Keeps a library's own printing off stderr while it runs: Debian's libjxl 0.7 is built to print its internal
/// failure trace (`./lib/jxl/dec_frame.cc:644: JXL_FAILURE: ...`, dozens of lines a damaged file) to stderr, which
/// is the terminal the table is drawn on, and it has no switch to stop it.
///
/// While any `silencing` call runs, descriptor 2 points at /dev/null (one redirection however many run at once);
/// the program's own messages (`whenAudible`) written meanwhile wait and go out, in order, when the last one ends.
public enum QuietStandardError {
    private struct State: ~Copyable {
        var silencers = 0
        var savedDescriptor: Int32 = -1
        var waiting: [@Sendable () -> Void] = []
    }

    private static let state = Mutex(State())

    /// Runs `body` with stderr going nowhere.
    public static func silencing<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        state.withLock { s in
            if s.silencers == 0 {
                let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
                if null >= 0 {
                    s.savedDescriptor = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
                    if s.savedDescriptor >= 0 { dup2(null, STDERR_FILENO) }
                    close(null)
                }
            }
            s.silencers += 1
        }
        defer {
            let released = state.withLock { s -> [@Sendable () -> Void] in
                s.silencers -= 1
                guard s.silencers == 0 else { return [] }
                if s.savedDescriptor >= 0 {
                    dup2(s.savedDescriptor, STDERR_FILENO)
                    close(s.savedDescriptor)
                    s.savedDescriptor = -1
                }
                defer { s.waiting = [] }
                return s.waiting
            }
            for write in released { write() }
        }
        return try body()
    }

    /// Runs `write` (which writes to stderr) now, or when the last `silencing` call ends if one is running.
    public static func whenAudible(_ write: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            guard s.silencers > 0 else { return true }
            s.waiting.append(write)
            return false
        }
        if now { write() }
    }
}
