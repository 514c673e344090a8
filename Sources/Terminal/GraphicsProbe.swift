import Basics
import FoundationEssentials
import Graphics
#if canImport(Glibc)
import Glibc
#endif

/// Detection at start-up, before curses takes the screen: asks the terminal which image protocol it speaks and how
/// large its cells are, waiting a bounded time for the answers, and gives the tty back as it found it.
enum GraphicsProbe {
    /// The longest detection waits for answers: a silent terminal costs this, one that answers a round trip (the
    /// queries end with DA1, which every terminal answers, so waiting stops at its answer). A second, not a few tens
    /// of milliseconds: over ssh a round trip can take hundreds, and on a loaded machine the terminal (or tmux, or
    /// an emulator under Xvfb) can take that long to answer; a budget of 80 ms lost the answers there, and the
    /// pictures fell back to text.
    static let budget: Duration = .seconds(1)
    /// The longest detection waits for a terminal that has begun answering: each answer gives it another `budget`
    /// for the next, up to this in all. A terminal that answered one question is alive and answers DA1 (every
    /// terminal does), so one that answers slowly, or whose answers straddle the budget on a loaded machine, is
    /// waited for; one that stops answering part way costs a budget after its last answer.
    static let answeringBudget: Duration = .seconds(3)
    /// The longest the tmux command that reads its options may take.
    static let tmuxBudget: Duration = .milliseconds(500)

    /// What the terminal on `device` can draw, as `request` asks: nothing is asked for `text`; inside tmux
    /// without passthrough nothing is written either (tmux would answer for itself).
    static func run(_ request: GraphicsRequest, on device: TerminalDevice) -> GraphicsCapabilities {
        guard request != .text else { return .text() }
        let environment = readEnvironment(of: device)
        var replies: TerminalReplies?
        if !environment.insideTmux || environment.tmuxPassthrough {
            replies = ask(TerminalQueries.bytes(for: request, insideTmux: environment.insideTmux), on: device)
        }
        return GraphicsDecision.decide(request, replies: replies, environment: environment)
    }

    /// The environment variables, tmux's options and the window's pixel size (`device`'s).
    static func readEnvironment(of device: TerminalDevice) -> TerminalEnvironment {
        func variable(_ name: String) -> String { getenv(name).map { String(cString: $0) } ?? "" }
        var environment = TerminalEnvironment(term: variable("TERM"), termProgram: variable("TERM_PROGRAM"),
                                              kittyWindow: !variable("KITTY_WINDOW_ID").isEmpty,
                                              insideTmux: !variable("TMUX").isEmpty,
                                              windowCellPixels: Terminal.windowCellPixels(of: device.output),
                                              windowCells: Terminal.windowCells(of: device.output))
        if environment.insideTmux, let options = tmuxOptions(pane: variable("TMUX_PANE")) {
            environment.tmuxPassthrough = options.passthrough
            environment.tmuxRGB = options.rgb
        }
        return environment
    }


    /// Whether tmux passes images through to the terminal outside it, and whether that terminal has 24-bit colour:
    /// from `tmux display`, nil when tmux cannot be asked. The user's tmux settings are read, never changed.
    static func tmuxOptions(pane: String) -> (passthrough: Bool, rgb: Bool)? {
        var arguments = ["tmux", "display", "-p"]
        if !pane.isEmpty { arguments += ["-t", pane] }
        guard let text = CommandOutput.run(arguments + ["#{allow-passthrough} #{client_termfeatures}"],
                                           timeout: tmuxBudget) else { return nil }
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard let first = fields.first else { return nil }
        let features = fields.dropFirst().flatMap { $0.split(separator: ",") }
        return (["1", "on", "all"].contains(String(first)), features.contains("RGB"))
    }

    /// Writes the queries and reads the answers until DA1's (or the budget), in raw mode; then restores the tty's
    /// modes and drops any input left, so a late answer does not reach curses as keys.
    static func ask(_ queries: [UInt8], on device: TerminalDevice) -> TerminalReplies {
        let input = device.input
        var saved = termios()
        guard !queries.isEmpty, tcgetattr(input, &saved) == 0 else { return TerminalReplies() }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return TerminalReplies() }
        defer {
            tcflush(input, TCIFLUSH)
            tcsetattr(input, TCSANOW, &saved)
        }
        guard writeAll(queries, to: device.output) else { return TerminalReplies() }
        return read(from: input)
    }

    /// Reads the answers until DA1's, for a `budget` after the queries and another after each answer, up to
    /// `answeringBudget` in all.
    static func read(from input: Int32) -> TerminalReplies {
        var parser = TerminalReplyParser()
        let start = ContinuousClock.now
        var deadline = start + budget
        while !parser.isComplete {
            var answered = false
            let end = readUntil(deadline, from: input) { chunk in
                let before = parser.replies
                parser.feed(chunk)
                answered = parser.replies != before
                return !parser.isComplete && !answered
            }
            guard end == .enough, answered else { break }
            deadline = min(ContinuousClock.now + budget, start + answeringBudget)
        }
        return parser.replies
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }
}
