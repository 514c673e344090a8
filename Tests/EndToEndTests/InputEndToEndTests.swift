import Foundation
import Testing

/// Keys typed while the program is busy are never lost. The quit watch (a thread that lets q and Ctrl-C end a program
/// whose loop is stuck) must read the keys the loop left unread for half a second to see a q among them; it used to
/// drop every other key it read, so a loop slow for half a second (a loaded machine, a terminal slow to take the
/// output) lost what was typed meanwhile.
@Suite(.serialized)
struct InputEndToEndTests {
    /// Whether a thread of the process is in a write(2) to its stdout (`/proc/PID/task/TID/syscall`: the call's
    /// number, 1 on x86-64, then its first argument, the descriptor). The loop runs on the main queue, which a
    /// thread of libdispatch's pool drains, not the main thread.
    static func isWritingToTheTerminal(pid: pid_t) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.contains { task in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/syscall", encoding: .utf8)) ?? ""
            return text.hasPrefix("1 0x1 ")
        }
    }

    /// The quit watch's thread id (it is named "quit watch").
    static func quitWatchThread(pid: pid_t) -> String? {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.first { task in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) == "quit watch\n"
        }
    }

    /// The bytes a thread has read so far (`rchar` in `/proc/PID/task/TID/io`).
    static func bytesRead(pid: pid_t, thread: String) -> Int {
        let io = (try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/io", encoding: .utf8)) ?? ""
        return io.split(separator: "\n").first { $0.hasPrefix("rchar:") }
            .flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    @Test func keysTypedWhileTheLoopIsStuckWritingAreAllTakenInOrder() async throws {
        let terminal = try PtyTerminal(program: try TmuxSession.binary(),
                                       arguments: DemoEndToEndTests.fastDemo + ["--graphics", "text"],
                                       environment: ["COLORTERM": "truecolor"], columns: 100, rows: 30,
                                       persona: .silent)
        defer { kill(terminal.pid, SIGKILL) }
        #expect(await terminal.wait { $0.text.contains("1 / ") })

        // The terminal stops reading, and the program redraws its whole screen on each resize until its main thread
        // is stuck in a write to the terminal: its loop cannot read keys.
        terminal.pauseReading()
        var size = 0
        let deadline = ContinuousClock.now + EndToEnd.deadline
        // Stuck: in a write on two looks 100 ms apart, with the unread output the same (the pty's buffer full).
        var stuckSince: Int?
        while ContinuousClock.now < deadline {
            let unread = terminal.unreadOutput
            if Self.isWritingToTheTerminal(pid: terminal.pid) {
                if stuckSince == unread { break }
                stuckSince = unread
            } else {
                stuckSince = nil
                size += 1
                terminal.resize(columns: 100 + size % 2, rows: 30, pixels: (0, 0))
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        try #require(Self.isWritingToTheTerminal(pid: terminal.pid), "the program's loop is stuck writing")

        // Three rows down, then the pane: typed while the loop is stuck. The quit watch takes them from the
        // terminal after half a second, while the loop still cannot read: the bytes its thread has read grow by 4.
        let watch = try #require(Self.quitWatchThread(pid: terminal.pid), "the quit watch thread")
        let before = Self.bytesRead(pid: terminal.pid, thread: watch)
        terminal.type("jjj\r")
        while Self.bytesRead(pid: terminal.pid, thread: watch) < before + 4, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(Self.bytesRead(pid: terminal.pid, thread: watch) >= before + 4, "the quit watch read the keys")
        #expect(Self.isWritingToTheTerminal(pid: terminal.pid), "while the loop was still stuck writing")

        // The terminal reads again; the loop gets every key, in order: row 4's detail pane.
        terminal.resumeReading()
        #expect(await terminal.wait { $0.text.contains("item 4 / 20") })
        terminal.type("qq")
        #expect(await terminal.exitStatus() == 0)
    }
}
