#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Starts a command with posix_spawn, as Foundation's Process would but without Foundation: no shell (the
/// arguments are argv), `arguments[0]` looked up in PATH, stdin and stderr on /dev/null, stdout on /dev/null or a
/// descriptor given, no other descriptor (the child gets 0, 1 and 2 only: not our sockets, nor the connections and
/// socketpairs libcurl opens without close-on-exec), and the signal mask and dispositions back to their defaults (the
/// program blocks and ignores some for its own reasons, and a child would inherit that).
public enum ChildProcess {
    /// glibc's `POSIX_SPAWN_SETSID` (2.26+, `spawn.h`): Swift's Glibc module leaves out that GNU extension's macro.
    static let spawnSetsid: Int32 = 0x80

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift's Glibc module does not declare:
    /// looked up once; nil on an older C library, where only close-on-exec keeps descriptors from the child.
    private static let closeFrom: CloseFrom? = {
        guard let library = dlopen(nil, RTLD_NOW),
              let symbol = dlsym(library, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }()

    /// Starts `arguments` and returns its pid, or the error number posix_spawn gave (ENOENT: not found).
    /// - Parameters:
    ///   - stdout: the descriptor the child's stdout goes to; nil for /dev/null.
    ///   - newSession: run in a session of its own, so the terminal's Ctrl-C and hang-up do not reach it and it
    ///     cannot read the keyboard.
    public static func spawn(_ arguments: [String], stdout: Int32? = nil,
                             newSession: Bool = false) -> Result<pid_t, SpawnError> {
        spawn(bytes: arguments.map { Array($0.utf8) }, stdout: stdout, newSession: newSession)
    }

    /// `spawn(_:stdout:newSession:)` for arguments given as bytes: a file name need not be UTF-8, and a `String`
    /// would replace what is not. An argument holding a NUL byte cannot be passed (EINVAL).
    public static func spawn(bytes arguments: [[UInt8]], stdout: Int32? = nil,
                             newSession: Bool = false) -> Result<pid_t, SpawnError> {
        guard !arguments.isEmpty else { return .failure(SpawnError(number: ENOENT)) }
        guard !arguments.contains(where: { $0.contains(0) }) else { return .failure(SpawnError(number: EINVAL)) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let stdout {
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Last, after the dup2 above has read its descriptor: everything from 3 up is closed in the child.
        _ = closeFrom?(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let session = newSession ? spawnSetsid : 0
        posix_spawnattr_setflags(&attributes, Int16(session | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map(cString) + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0]!, &actions, &attributes, &argv, environ)
        return spawned == 0 ? .success(pid) : .failure(SpawnError(number: spawned))
    }

    /// A copy of `bytes` with a NUL after them, on the C heap (`free` it).
    private static func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar> {
        let pointer = malloc(bytes.count + 1)!.assumingMemoryBound(to: CChar.self)
        for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
        pointer[bytes.count] = 0
        return pointer
    }

    /// Waits for `pid` to end and returns its status as a shell shows it: the exit status, or 128 plus the signal
    /// that ended it. Blocks the calling thread.
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED, WEXITSTATUS and WTERMSIG, which Swift cannot call (they are macros).
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Why a command could not be started: posix_spawn's error number.
    public struct SpawnError: Error, Sendable, Equatable, CustomStringConvertible {
        public var number: Int32
        public var description: String { String(cString: strerror(number)) }

        public init(number: Int32) {
            self.number = number
        }
    }
}
