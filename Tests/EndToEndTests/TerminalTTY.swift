import Foundation

/// The tty of a program running in a real terminal window (xterm, kitty under Xvfb): the test types keys into it and
/// writes terminal requests to it, as the program's own output would reach the terminal.
///
/// Neither terminal takes keys from outside without a window manager or XTest, so keys are pushed into the tty's
/// input (TIOCSTI). `TerminalProgram` finds the path.
struct TerminalTTY {
    let path: String

    /// Whether a test can type: TIOCSTI is off on kernels built or set without it (`dev.tty.legacy_tiocsti = 0`).
    static var canType: Bool {
        guard let setting = try? String(contentsOfFile: "/proc/sys/dev/tty/legacy_tiocsti", encoding: .utf8) else {
            return true
        }
        return setting.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// Types `text` into the program, byte by byte.
    func type(_ text: String) throws {
        try withDescriptor { fd in
            for var byte in Array(text.utf8) {
                guard ioctl(fd, UInt(TIOCSTI), &byte) == 0 else {
                    throw TTYError(description: "TIOCSTI on \(path): \(String(cString: strerror(errno)))")
                }
            }
        }
    }

    /// Writes `text` to the terminal, as output (a request such as xterm's resize, `CSI 8 ; rows ; columns t`).
    func write(_ text: String) throws {
        try withDescriptor { fd in
            let bytes = Array(text.utf8)
            guard Glibc.write(fd, bytes, bytes.count) == bytes.count else {
                throw TTYError(description: "write to \(path): \(String(cString: strerror(errno)))")
            }
        }
    }

    private func withDescriptor(_ body: (Int32) throws -> Void) throws {
        let fd = open(path, O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw TTYError(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        try body(fd)
    }

    struct TTYError: Error, CustomStringConvertible {
        var description: String
    }
}
