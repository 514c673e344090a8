import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Items read from a named pipe while it is written (`browse --items-from`, the stdin source a picker will read), in
/// a real terminal: rows and the count so far before the pipe ends, the count in all after.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct ItemStreamEndToEndTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized.path

    /// Opens the writing end of `fifo`, which waits until thumbtable opens the reading end, off the test's tasks.
    static func openForWriting(_ fifo: String) async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: open(fifo, O_WRONLY | O_CLOEXEC)) }
        }
    }

    static func write(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            written += count
        }
    }

    @Test func rowsFromAPipeAppearWhileItIsOpenAndTheHeaderCountsThemThenSaysHowManyInAll() async throws {
        // A short name: the header names the input, and a long one would leave no room for the count.
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("tt-\(UUID().uuidString.prefix(8))").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let tmux = try TmuxSession(["browse", "--items-from", fifo, "--no-disk-cache"])
        defer { tmux.close() }
        let writer = await Self.openForWriting(fifo)
        #expect(writer >= 0)
        // A photo, a line with an escape sequence, and more missing files than a page holds.
        var text = "\(Self.photos)/chelsea.png\n\u{1B}[31mred\n"
        for number in 1...298 { text += "missing-\(number).jpg\n" }
        Self.write(text, to: writer)
        let open = try await tmux.waitFor("the rows and the count so far") { lines in
            lines[0].contains("300 found so far") && lines.contains { $0.contains("chelsea.png") }
        }
        #expect(open.contains { $0.contains("^[[31mred") }, "the escape is shown, not obeyed")
        #expect(open.contains { $0.contains("neither an existing file nor an http(s) URL") })

        Self.write("\(Self.photos)/coffee.png\n", to: writer)
        close(writer)
        try await tmux.waitFor(text: "301 in all")
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }
}
