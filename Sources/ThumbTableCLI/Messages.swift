import ArgumentParser
import Basics
import Cells
import FoundationEssentials
import Glibc

/// The one way the CLI writes text to stdout and stderr: every message can quote a file name, an argument, a path or
/// a server's answer, so each goes through the screen's escaping (`TerminalText`) with only its line breaks kept.
///
/// The text art `render` prints is not a message: its escape sequences are ours, made from pixels, and it goes
/// straight to stdout.
enum Messages {
    enum Stream {
        case standardOutput, standardError
    }

    /// Writes `text` with every control character but the line feed made visible.
    static func write(_ text: String, to stream: Stream) {
        // A message that cannot be written has nowhere else to go.
        let bytes = Array(visible(text).utf8)
        guard stream == .standardError else {
            try? StandardStreams.write(bytes, to: STDOUT_FILENO)
            return
        }
        // Held while a library's chatter is kept off stderr (QuietStandardError), then written in order.
        QuietStandardError.whenAudible { try? StandardStreams.write(bytes, to: STDERR_FILENO) }
    }

    /// Writes `thumbtable: MESSAGE` and a line break to stderr.
    static func error(_ message: String) {
        write("thumbtable: \(message)\n", to: .standardError)
    }

    /// `text` made safe for a terminal, line by line. Lines are split on the line feed scalar, not on `Character`s,
    /// because "\r\n" is one `Character` and its CR must be shown, not obeyed.
    static func visible(_ text: String) -> String {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TerminalText.visible(String($0)) }
            .joined(separator: "\n")
    }

    /// Prints what ArgumentParser would for `error` (help, usage, the message), escaped, and exits with its status.
    /// ArgumentParser's own `exit(withError:)` prints the user's arguments raw. A `RunFailure` is no usage mistake:
    /// it gets its message alone and its own status.
    static func exit(withError error: Error) -> Never {
        if let failure = error as? RunFailure {
            write("Error: \(failure)\n", to: .standardError)
            Glibc.exit(failure.status)
        }
        let text = ThumbTableCommand.fullMessage(for: error, columns: nil)
        let code = ThumbTableCommand.exitCode(for: error)
        if !text.isEmpty { write(text + "\n", to: code == .success ? .standardOutput : .standardError) }
        Glibc.exit(code.rawValue)
    }
}
