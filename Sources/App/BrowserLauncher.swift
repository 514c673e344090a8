import Basics
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

    /// Why the browser could not be started.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Starts the browser on `url` and returns at once; `ended` is called, off the main thread, with the command's
    /// exit status when it ends (a waiting thread reaps it, so no zombie is left).
    public func open(_ url: String, ended: @escaping @Sendable (Int32) -> Void) throws(Failure) {
        let argv = arguments(for: url)
        let child: pid_t
        switch ChildProcess.spawn(argv, newSession: true) {
        case .success(let pid): child = pid
        case .failure(let error):
            let hint = error.number == ENOENT ? "not found; set $BROWSER to your browser's command" : error.description
            throw Failure(description: "cannot start \(argv[0]): \(hint)")
        }
        Task.detached {
            ended(await BlockingIO.run { ChildProcess.wait(child) })
        }
    }
}
