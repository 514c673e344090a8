import Basics
import FoundationEssentials
import LocalFiles
#if canImport(Glibc)
import Glibc
#endif

/// Opens a URL in the user's browser, or a local file in what the desktop opens it with: `$BROWSER` when set, else
/// `xdg-open`, started detached and without a shell.
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
    public init(environment: [String: String] = browserVariable) {
        let first = environment["BROWSER"]?.split(separator: ":").first.map(String.init) ?? ""
        let words = first.split(whereSeparator: \.isWhitespace).map(String.init)
        command = words.isEmpty ? ["xdg-open"] : words
    }

    /// `$BROWSER`, the one variable `init` reads: ProcessInfo's whole environment, made at every start, cost a
    /// one-shot pick about 0.4 M instructions (issue 27).
    public static var browserVariable: [String: String] {
        getenv("BROWSER").map { ["BROWSER": String(cString: $0)] } ?? [:]
    }

    /// The whole argv for `url`: the URL in place of `%s`, else after the command.
    public func arguments(for url: String) -> [String] {
        arguments(for: Array(url.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Why the browser could not be started.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The whole argv for a local file: its path's exact bytes in place of `%s`, else after the command.
    public func arguments(for path: LocalPath) -> [[UInt8]] {
        arguments(for: path.bytes)
    }

    /// The argv with `target` (a URL's or a path's bytes) in place of `%s`, else after the command.
    private func arguments(for target: [UInt8]) -> [[UInt8]] {
        let placeholder = Array("%s".utf8)
        let words = command.map { Array($0.utf8) }
        guard words.contains(where: { $0.firstRange(of: placeholder) != nil }) else { return words + [target] }
        return words.map { $0.replacing(placeholder, with: target) }
    }

    /// Starts the browser on `url` and returns at once; `ended` is called, off the main thread, with the command's
    /// exit status when it ends (a waiting thread reaps it, so no zombie is left).
    public func open(_ url: String, ended: @escaping @Sendable (Int32) -> Void) throws(Failure) {
        try start(arguments(for: Array(url.utf8)), ended: ended)
    }

    /// Starts the browser (or `xdg-open`) on a local file, as `open(_:ended:)` does a URL.
    public func open(_ path: LocalPath, ended: @escaping @Sendable (Int32) -> Void) throws(Failure) {
        try start(arguments(for: path), ended: ended)
    }

    private func start(_ argv: [[UInt8]], ended: @escaping @Sendable (Int32) -> Void) throws(Failure) {
        let child: pid_t
        switch ChildProcess.spawn(bytes: argv, newSession: true) {
        case .success(let pid): child = pid
        case .failure(let error):
            let hint = error.number == ENOENT ? "not found; set $BROWSER to your browser's command" : error.description
            throw Failure(description: "cannot start \(command[0]): \(hint)")
        }
        Task.detached {
            ended(await BlockingIO.run { ChildProcess.wait(child) })
        }
    }
}
