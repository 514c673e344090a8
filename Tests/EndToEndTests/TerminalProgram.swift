import Foundation

/// ThumbTable run by a real terminal window's shell (xterm, kitty under Xvfb): the command line for `sh -c`, which
/// records the program's tty, for the test to type into, and its exit status, for the test to wait on.
final class TerminalProgram {
    /// The command for the terminal to run.
    let command: String
    private let ttyFile: String, exitFile: String

    /// The built binary with `arguments`, under `TERM` (xterm's own entry: the tests' terminals are xterm-like).
    init(_ arguments: [String], term: String = "xterm") throws {
        let stem = FileManager.default.temporaryDirectory.appendingPathComponent("tt-\(UUID().uuidString)").path
        ttyFile = stem + ".tty"
        exitFile = stem + ".exit"
        let program = ([try TmuxSession.binary()] + arguments).map(TmuxSession.quote).joined(separator: " ")
        // Each file is written aside and renamed, so the test never reads half of one.
        command = "tty > \(ttyFile).part && mv \(ttyFile).part \(ttyFile); env TERM=\(term) \(program); "
            + "echo $? > \(exitFile).part && mv \(exitFile).part \(exitFile)"
    }

    deinit {
        unlink(ttyFile)
        unlink(exitFile)
    }

    /// The program's tty, once the shell has recorded it.
    func tty() throws -> TerminalTTY {
        TerminalTTY(path: try Self.waitForFile(ttyFile, "the program's tty"))
    }

    /// The program's exit status, once it has ended.
    func waitForExit() throws -> Int32 {
        Int32(try Self.waitForFile(exitFile, "the program's exit")) ?? -1
    }

    /// Whether the program has ended.
    var hasExited: Bool { FileManager.default.fileExists(atPath: exitFile) }

    /// The trimmed text of `path` once it exists, checked every 50 ms until `EndToEnd.deadline`.
    private static func waitForFile(_ path: String, _ what: String) throws -> String {
        let timeout = Double(EndToEnd.deadline.components.seconds)
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let text = try? String(contentsOfFile: path, encoding: .utf8) {
                return text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard Date() < deadline else {
                throw TerminalTTY.TTYError(description: "\(what) did not happen within \(timeout) s")
            }
            usleep(50_000)
        }
    }
}
