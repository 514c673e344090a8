import FoundationEssentials
import LocalFiles
#if canImport(Glibc)
import Glibc
#endif

/// Opens a URL in the user's browser: `$BROWSER` when set, else `xdg-open`, started detached and without a shell.
///
/// The command gets the URL as one argument of its own (argv, never a string for `sh`), runs in a session of its
/// own (so the terminal's Ctrl-C and hang-up do not reach it, and it cannot read the keyboard), with stdin, stdout and
/// stderr on /dev/null (so nothing it prints lands on the screen), and with default signal dispositions (the program
/// ignores some for its own reasons, and a child would inherit that).
public struct BrowserLauncher: Sendable {
    /// The command and its arguments before the URL.
    public var command: [String]

    /// `$BROWSER`'s first entry (a colon-separated list, as `xdg-open` and Python's webbrowser read it), split on
    /// spaces, a `%s` in it standing for the URL; else `xdg-open`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let first = environment["BROWSER"]?.split(separator: ":").first.map(String.init) ?? ""
        let words = first.split(whereSeparator: \.isWhitespace).map(String.init)
        command = words.isEmpty ? ["xdg-open"] : words
    }

    /// The whole argv for `url`: the URL in place of `%s`, else after the command.
    public func arguments(for url: String) -> [String] {
        command.contains { $0.contains("%s") }
            ? command.map { $0.replacing("%s", with: url) } : command + [url]
    }

    /// glibc's `POSIX_SPAWN_SETSID` (2.26+, `spawn.h`): Swift's Glibc module leaves out that GNU extension's macro.
    static let spawnSetsid: Int32 = 0x80

    /// Why the browser could not be started.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Starts the browser on `url` and returns at once; `ended` is called, off the main thread, with the command's
    /// exit status when it ends (a waiting thread reaps it, so no zombie is left).
    public func open(_ url: String, ended: @escaping @Sendable (Int32) -> Void) throws(Failure) {
        let argv = arguments(for: url)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(Self.spawnSetsid | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, &cArguments, environ)
        guard spawned == 0 else {
            let hint = spawned == ENOENT ? "not found; set $BROWSER to your browser's command"
                : String(cString: strerror(spawned))
            throw Failure(description: "cannot start \(argv[0]): \(hint)")
        }
        let child = pid
        Task.detached {
            let status = await BlockingIO.run {
                var status: Int32 = 0
                while waitpid(child, &status, 0) < 0 && errno == EINTR {}
                return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            }
            ended(status)
        }
    }
}
