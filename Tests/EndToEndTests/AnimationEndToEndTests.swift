import Foundation
import Testing
import TestSupport

/// Issue 30, item 3 as a user sees it: an animated GIF or an AVIF sequence plays in the detail pane at its own frame
/// delays, Space pauses and plays it, and once the pane is closed the process spends no CPU on it.
@Suite struct AnimationEndToEndTests {
    /// Six frames of a white bar stepping across a black 96x64 picture, 150 ms each.
    static let steppingBar = TestGIF.animated(width: 96, height: 64, frames: 6, delay: 15,
                                              palette: [(0, 0, 0), (255, 255, 255)]) { frame, x, _ in
        x / 16 == frame ? 1 : 0
    }

    @Test func anAnimatedGIFPlaysInThePanePausesWithSpaceAndStopsWhenClosed() async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.steppingBar).write(to: folder.appendingPathComponent("bar.gif"))
        try await Self.playsPausesAndStops("bar.gif", in: folder)
    }

    /// The same bar as an AVIF sequence (avifenc, 150 ms a frame), played through libavif.
    @Test(.enabled(if: NewerFormatFiles.encodersAvailable, "avifenc is missing: run scripts/setup"))
    func anAVIFSequencePlaysInThePanePausesWithSpaceAndStopsWhenClosed() async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = try AVIFSequenceFiles.steppingBar(count: 6, in: folder)
        try AVIFSequenceFiles.make(frames.map { (png: $0, ticks: 150) },
                                   output: folder.appendingPathComponent("bar.avif").path)
        for frame in frames { try FileManager.default.removeItem(atPath: frame) }
        try await Self.playsPausesAndStops("bar.avif", in: folder)
    }

    private static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-anim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Opens `name`, the only picture in `folder`, in the pane: it plays, pauses and plays with Space, and stops
    /// when the pane closes.
    private static func playsPausesAndStops(_ name: String, in folder: URL) async throws {
        let tmux = try TmuxSession(["browse", folder.path, "--graphics", "text", "--no-disk-cache"])
        defer { tmux.close() }
        try await tmux.waitFor(text: name)
        try tmux.send("Enter")
        try await tmux.waitFor(text: "Animation: playing (Space pauses)")

        // The picture changes by itself: three different frames seen.
        var seen: Set<String> = []
        try await tmux.waitFor("three different frames of the animation") { _ in
            if let screen = try? tmux.screenWithEscapes() { seen.insert(screen) }
            return seen.count >= 3
        }

        // Paused, it holds its frame over four of the frames' delays.
        try tmux.send("Space")
        try await tmux.waitFor(text: "Animation: paused (Space plays)")
        let held = try await tmux.waitForSteady("the paused frame") { _ in true }
        try await Task.sleep(for: .milliseconds(600))
        #expect(try tmux.screenWithEscapes() == held, "the paused picture did not change")

        // Played again, it moves on.
        try tmux.send("Space")
        try await tmux.waitFor(text: "Animation: playing (Space pauses)")
        try await tmux.waitFor("the animation moving again") { _ in
            (try? tmux.screenWithEscapes()).map { $0 != held } ?? false
        }

        // Closed, it stops: over a second the process spends next to no CPU.
        try tmux.send("Escape")
        try await tmux.waitFor("the list again") { lines in !lines.contains { $0.contains("Animation:") } }
        let pid = try #require(try tmux.programPID())
        let before = try DecodeCancellationEndToEndTests.cpuSeconds(pid)
        try await Task.sleep(for: .seconds(1))
        let spent = try DecodeCancellationEndToEndTests.cpuSeconds(pid) - before
        #expect(spent < 0.1, "\(spent) s of CPU in the second after the pane closed")
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }
}
