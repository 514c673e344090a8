import Foundation
import Testing
import TestSupport

/// Issue 24, item 3's last gap as a user meets it: a page whose first rows are slow JPEGs (progressive, 8192x8192,
/// 60 scans of end-of-block runs: about a second of CPU each, under the scan limit), then ordinary rows. Jumping to
/// the end leaves the slow rows; the decode that was running stops part way instead of finishing for nobody, so the
/// process's CPU time stops growing once the rows on screen are drawn.
@Suite struct DecodeCancellationEndToEndTests {
    @Test func leavingSlowRowsStopsTheirDecodeWhileOrdinaryRowsLoad() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-slow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let slow = Data(HostileImages.progressiveJPEG(side: 8192, scans: 60))
        for i in 1...8 { try slow.write(to: folder.appendingPathComponent("a\(i)-slow.jpg")) }
        let horse = PipelineEndToEndTests.photos.appendingPathComponent("horse.png")
        for i in 10..<40 { try FileManager.default.copyItem(at: horse, to: folder.appendingPathComponent("z\(i).png")) }

        let tmux = try TmuxSession(["browse", folder.path, "--no-disk-cache"])
        defer { tmux.close() }
        try await tmux.waitFor(text: " / 38")
        let pid = try #require(try tmux.programPID())
        // A slow decode is under way: the process has spent more CPU than starting and drawing the list takes.
        let decoding = ContinuousClock.now + EndToEnd.deadline
        while try Self.cpuSeconds(pid) < 0.6, ContinuousClock.now < decoding {
            try await Task.sleep(for: .milliseconds(20))
        }
        try tmux.send("G")
        try await tmux.waitFor("the last rows drawn, no spinner left") { lines in
            lines.contains { $0.contains("z39.png") } && !lines.joined().unicodeScalars.contains {
                DemoEndToEndTests.spinner.contains($0)
            }
        }
        // Nothing is left to do: over a second and a half the process spends next to no CPU. Before, the slow
        // decode that was running went on to its end (most of a second of CPU) after its row had gone.
        let before = try Self.cpuSeconds(pid)
        try await Task.sleep(for: .milliseconds(1500))
        let spent = try Self.cpuSeconds(pid) - before
        #expect(spent < 0.25, "\(spent) s of CPU after the slow rows left")
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    /// User and system CPU time of `pid` so far, from /proc/PID/stat (fields 14 and 15, in clock ticks).
    static func cpuSeconds(_ pid: pid_t) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        let ticks = Double(fields[11])! + Double(fields[12])!
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
