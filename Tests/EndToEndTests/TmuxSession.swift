import Foundation
import Testing

/// The built `thumbtable` binary running in a real terminal: a detached tmux session on a private server.
///
/// Tests type with `send-keys` and read the screen with `capture-pane`. Waiting is for a condition on the screen
/// (checked every few milliseconds up to a deadline), never a fixed sleep.
final class TmuxSession {
    let socket: String
    let session = "tt"
    private let config: String
    private let statusFile: String
    private(set) var closed = false
    /// The program's `--stats-file`, when its arguments name one: a failing wait shows it, if it has been written.
    private var statsFile: String?

    /// Starts `thumbtable ARGS` in a terminal of the given size, with a UTF-8 locale and a 256-colour TERM.
    convenience init(_ arguments: [String], columns: Int = 100, rows: Int = 30,
                     environment: [String: String] = [:]) throws {
        let socket = "thumbtable-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        // tmux 3.3 does not report a dead pane's exit status, so a shell writes it to a file (whole, by a rename).
        // Then it sets the pane's title (an OSC 2, which draws nothing): the title comes through the pty after every
        // byte the program wrote, so once tmux shows it, tmux has read all of the program's output (`hasEnded`).
        // The shell then stays, so the pane keeps the program's last screen and cursor state as the program left
        // them: tmux marks a dead pane with a status line and a hidden cursor.
        let statusFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).status").path
        let program = try TmuxSession.commandLine(arguments, environment: environment)
        let script = "ulimit -c 0; \(program); echo $? > \(statusFile).part; mv \(statusFile).part \(statusFile); "
            + "printf '\\033]2;\(TmuxSession.endedTitle)\\033\\\\'; exec sleep 86400"
        try self.init(socket: socket, statusFile: statusFile, command: "sh -c \(TmuxSession.quote(script))",
                      columns: columns, rows: rows)
        statsFile = arguments.firstIndex(of: "--stats-file")
            .flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    }

    /// Starts an interactive shell with job control (bash, prompt `$ `) in a terminal of the given size, for what
    /// needs a shell around the program: Ctrl-Z and `fg`. `commandLine` gives what to type to start thumbtable.
    convenience init(interactiveShellColumns columns: Int = 100, rows: Int = 30) throws {
        let socket = "thumbtable-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        let statusFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).status").path
        let shell = "exec env PS1='$ ' bash --norc --noprofile -i"
        try self.init(socket: socket, statusFile: statusFile, command: shell, columns: columns, rows: rows)
    }

    /// The shell words that run `thumbtable ARGS` with a UTF-8 locale and a 256-colour TERM, or `environment`'s.
    static func commandLine(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let binary = try TmuxSession.binary()
        // Frame marks: each frame between two window titles, so that `waitFor` reads whole frames only.
        var env = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "screen-256color",
                   "THUMBTABLE_TEST_FRAME_MARKS": "1"]
        env.merge(environment) { $1 }
        let exports = env.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        return "env \(exports) \(([binary] + arguments).map(TmuxSession.quote).joined(separator: " "))"
    }

    private init(socket: String, statusFile: String, command: String, columns: Int, rows: Int) throws {
        self.socket = socket
        self.statusFile = statusFile
        // remain-on-exit keeps the pane should the shell die too (a crash that takes the process group).
        config = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).conf").path
        try "set -g remain-on-exit on\nset -g default-terminal screen-256color\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        try tmux(["-f", config, "new-session", "-d", "-s", session, "-x", "\(columns)", "-y", "\(rows)",
                  "-e", "TERM=screen-256color", command])
    }

    deinit {
        close()
    }

    /// Kills the tmux server.
    func close() {
        guard !closed else { return }
        closed = true
        _ = try? tmux(["kill-server"])
        unlink(config)
        unlink(statusFile)
    }

    /// Types keys, in tmux's names (`j`, `PageDown`, `Enter`, `Escape`, `C-d`).
    func send(_ keys: String...) throws {
        try send(contentsOf: keys)
    }

    /// Types keys given as a list, all in one go.
    func send(contentsOf keys: [String]) throws {
        try tmux(["send-keys", "-t", session] + keys)
    }

    /// Types text literally.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", session, "-l", text])
    }

    /// The screen's text, one string a line.
    func screen() throws -> [String] {
        try tmux(["capture-pane", "-p", "-t", session]).components(separatedBy: "\n")
    }

    /// The screen, or nil while the program is writing a frame: the program marks each frame's start and end with
    /// a window title (`THUMBTABLE_TEST_FRAME_MARKS`), and a screen read between two reads of the same title that is
    /// not a frame's start is a whole frame (tmux takes titles in the order of the bytes, so a frame begun in between
    /// changes the title). A capture taken mid-frame shows the new header over rows not yet redrawn: tests that
    /// waited for one line and then read others failed now and then under load.
    func wholeFrame() throws -> [String]? {
        let before = try pane("pane_title")
        let lines = try screen()
        guard try pane("pane_title") == before, !before.hasSuffix("-begin") else { return nil }
        return lines
    }

    /// The screen with colours (escape sequences), for checking that colour reaches the terminal.
    func screenWithEscapes() throws -> String {
        try tmux(["capture-pane", "-p", "-e", "-t", session])
    }

    /// Waits until tmux's paste buffer holds `text` (what `y` copied, with `set-clipboard on`).
    func waitForPasteBuffer(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await waitFor("tmux's paste buffer", sourceLocation: sourceLocation) { _ in
            (try? self.tmux(["show-buffer"]))?.trimmingCharacters(in: .newlines) == text
        }
    }

    /// Waits until the screen satisfies `condition` (the screen is read every 20 ms: tmux has no way to say it
    /// changed); returns the screen, or records an issue with what there was instead (`report`). The deadline is a
    /// safety net, not a speed limit (`EndToEnd.deadline`). A program that has ended stops the wait at once.
    /// `wholeFrames: false` takes the screen as it is, whole frame or not: for a program stopped from outside, which
    /// may have stopped in the middle of a frame and so never end it.
    @discardableResult
    func waitFor(_ what: String, wholeFrames: Bool = true, sourceLocation: SourceLocation = #_sourceLocation,
                 _ condition: ([String]) -> Bool) async throws -> [String] {
        let deadline = ContinuousClock.now + EndToEnd.deadline
        var last: [String] = []
        while ContinuousClock.now < deadline {
            guard let whole = try wholeFrames ? wholeFrame() : screen() else {
                try await Task.sleep(for: .milliseconds(20))
                continue
            }
            last = whole
            if condition(last) { return last }
            if try hasEnded() {
                last = try screen()
                if condition(last) { return last }
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("timed out waiting for \(what)\n\(report(screen: last))", sourceLocation: sourceLocation)
        return last
    }

    /// Waits until the screen with its colours (`screenWithEscapes`) satisfies `condition` and reads the same three
    /// times in a row: for a test that compares a whole screen, which a capture taken while a frame is being written
    /// (a full repaint draws the header first) would show half old. Returns that screen.
    @discardableResult
    func waitForSteady(_ what: String, sourceLocation: SourceLocation = #_sourceLocation,
                       _ condition: @escaping ([String]) -> Bool) async throws -> String {
        var reads: [String] = []
        _ = try await waitFor(what + ", the same on three reads", sourceLocation: sourceLocation) { lines in
            guard condition(lines), let coloured = try? self.screenWithEscapes() else {
                reads.removeAll()
                return false
            }
            reads.append(coloured)
            if reads.count > 3 { reads.removeFirst() }
            return reads.count == 3 && Set(reads).count == 1
        }
        return reads.last ?? ""
    }

    /// Waits until some line of the screen contains `text`.
    @discardableResult
    func waitFor(text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
        try await waitFor("\"\(text)\"", sourceLocation: sourceLocation) { lines in
            lines.contains { $0.contains(text) }
        }
    }

    /// What a failing test shows: whether the program still runs (or how it ended), the screen as text with the
    /// status line (its last line) called out, the screen with its colours (SGR escapes as `\e`), and the stats
    /// file when the program was given one and has written it.
    func report(screen given: [String]? = nil) -> String {
        let lines = given ?? ((try? screen()) ?? [])
        let status = (try? String(contentsOfFile: statusFile, encoding: .utf8))
            .map { "the program ended with status \($0.trimmingCharacters(in: .whitespacesAndNewlines))" }
            ?? "the program is still running"
        let statusLine = lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
        let coloured = ((try? screenWithEscapes()) ?? "").replacingOccurrences(of: "\u{1B}", with: "\\e")
        var text = """
            \(status); the screen was:
            \(lines.joined(separator: "\n"))
            its last line: \(statusLine)
            with colours:
            \(coloured)
            """
        if let statsFile {
            let stats = (try? String(contentsOfFile: statsFile, encoding: .utf8)) ?? "(not written yet)"
            text += "\nthe stats file \(statsFile):\n\(stats)"
        }
        return text
    }

    /// The pane's title once the program has ended and tmux has read everything it wrote.
    static let endedTitle = "thumbtable-test-ended"

    /// Whether the program has ended and tmux has taken in all it wrote: the screen will not change any more.
    func hasEnded() throws -> Bool {
        try pane("pane_title") == Self.endedTitle
    }

    /// Waits for the program to exit and returns its exit status; nil, with an issue showing the screen, when it is
    /// still running at the deadline.
    func exitStatus(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int? {
        let deadline = ContinuousClock.now + EndToEnd.deadline
        while ContinuousClock.now < deadline {
            if try hasEnded(), let status = try? String(contentsOfFile: statusFile, encoding: .utf8) {
                return Int(status.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the program did not exit\n\(report())", sourceLocation: sourceLocation)
        return nil
    }

    /// A tmux format value for the pane (`alternate_on`, `cursor_flag`, `pane_pid`...).
    func pane(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", session, "#{\(format)}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The process id of thumbtable itself (the pane runs a shell that waits for it).
    func programPID() throws -> pid_t? {
        let shell = try pane("pane_pid")
        let children = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return children?.split(separator: " ").first.flatMap { pid_t($0) }
    }

    /// Resizes the terminal (the program gets SIGWINCH).
    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", session, "-x", "\(columns)", "-y", "\(rows)"])
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let (status, text) = try Self.run(["tmux", "-L", socket] + arguments)
        guard status == 0 else {
            throw TmuxError(description: "tmux \(arguments.joined(separator: " ")) failed (\(status)): \(text)")
        }
        return text
    }

    /// Runs a command found on PATH and returns its exit status and output.
    ///
    /// posix_spawn and waitpid rather than Foundation's Process: the tmux server that `new-session` starts inherits
    /// the child's descriptors (so a pipe never reaches end of file), and Process could leave the client unreaped.
    /// Output goes to a temporary file.
    static func run(_ argv: [String]) throws -> (Int32, String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        // The test process blocks or ignores signals for its own reasons (SIGHUP among them), and a child inherits
        // both: a tmux server started with SIGHUP blocked could not hang up its pane's processes, so `kill-server`
        // left them running. The child starts with no signal blocked and the usual dispositions.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGQUIT, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, &cArgs, environ)
        guard spawned == 0 else {
            throw TmuxError(description: "cannot start \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7F == 0
        return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), text)
    }

    struct TmuxError: Error, CustomStringConvertible {
        var description: String
    }

    /// The `thumbtable` binary: $THUMBTABLE_BIN, or the one built beside this test bundle.
    static func binary() throws -> String {
        if let path = ProcessInfo.processInfo.environment["THUMBTABLE_BIN"] { return path }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("thumbtable").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        throw TmuxError(description: "thumbtable binary not found next to \(CommandLine.arguments[0]); "
                        + "build it first (swift build) or set THUMBTABLE_BIN")
    }

    static func quote(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    static var tmuxAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
    }
}
