#if canImport(Glibc)
import Glibc
#endif

/// The terminal the screen is on: the descriptors keys are read from and the screen, the graphics queries and the
/// pictures are written to.
///
/// The standard streams when both are terminals; otherwise the controlling terminal (`/dev/tty`), as fzf does, so
/// that `$(thumbtable …)`, pipes and redirections leave stdin and stdout to the script while the user sees the
/// screen and types keys.
public struct TerminalDevice: Sendable, Equatable {
    /// Which terminal a command opens.
    public enum Choice: Sendable, Equatable {
        /// Stdin and stdout, which must both be terminals.
        case standardStreams
        /// `/dev/tty`, whatever stdin and stdout are.
        case controllingTerminal
        /// The standard streams when both are terminals, else the controlling terminal.
        case automatic
    }

    /// Where keys are read.
    public let input: Int32
    /// Where the screen is drawn; the same terminal as `input`.
    public let output: Int32

    /// The standard streams, as they are.
    public static let standardStreams = TerminalDevice(input: STDIN_FILENO, output: STDOUT_FILENO)

    /// A terminal on descriptors the caller opened (a pty in a test); they stay the caller's to close.
    public init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// Opens the terminal `choice` names. The controlling terminal's descriptor is close-on-exec and stays open for
    /// the rest of the process (the quit watch may still be polling it when the screen is given back).
    public static func open(_ choice: Choice) throws(Terminal.SetupError) -> TerminalDevice {
        let standardIsTerminal = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        switch choice {
        case .standardStreams:
            guard standardIsTerminal else {
                throw Terminal.SetupError(description: "thumbtable needs a terminal: stdin and stdout must be a tty")
            }
            return .standardStreams
        case .automatic where standardIsTerminal:
            return .standardStreams
        case .automatic, .controllingTerminal:
            return try openControllingTerminal()
        }
    }

    private static func openControllingTerminal() throws(Terminal.SetupError) -> TerminalDevice {
        var fd: Int32
        repeat { fd = Glibc.open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY) } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw Terminal.SetupError(description: "thumbtable needs a terminal to draw on: stdin or stdout is not "
                                      + "one, and there is no controlling terminal (/dev/tty: \(reason)); run it "
                                      + "from a terminal, or use --print or `thumbtable render` to write to stdout")
        }
        guard isatty(fd) == 1 else {
            close(fd)
            throw Terminal.SetupError(description: "thumbtable needs a terminal to draw on: /dev/tty is not one")
        }
        return TerminalDevice(input: fd, output: fd)
    }
}
