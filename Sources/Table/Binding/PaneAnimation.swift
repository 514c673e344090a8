import Cells
import FoundationEssentials

/// An animation's frames as cells, each drawn when asked: what the detail pane's player shows. The loader makes it
/// (`ThumbnailLoading.animation`) and does the decoding and drawing off the main actor.
public protocol AnimationFrameSource: Sendable {
    /// The next frame, the first again after the last; throws a readable error (the picture shown stays).
    func nextFrame() async throws -> AnimatedCells
}

/// One frame of an animation drawn as cells, and how long it shows (the file's delay, with the browsers' floor:
/// `AnimationFrame.displayTime`). The cells are empty for a frame drawn in pixels (`ThumbnailBinder.pixelAnimation`):
/// the text art under it stays the first frame's.
public struct AnimatedCells: Sendable, Equatable {
    public var cells: CellBuffer
    public var displayTime: Duration

    public init(cells: CellBuffer, displayTime: Duration) {
        self.cells = cells
        self.displayTime = displayTime
    }
}

/// The detail pane's player: shows an animation's frames at their own times until stopped (the pane closed, its
/// image loads again) and holds the frame shown while paused (Space).
///
/// The first frame is the picture the pane already shows, so the player starts with the second, one display time
/// of the first after it starts. A frame whose decoding ran late is shown at once: a slow machine plays slower,
/// never in a burst. Frames are shown only through `show`, on the main actor, and only while the player that
/// asked for them plays: a frame that arrives after `stop` is dropped.
@MainActor
final class PaneAnimation {
    /// Whether a player runs (playing or paused).
    var isActive: Bool { task != nil }
    private(set) var isPaused = false
    /// Frames shown since the player started, the first (already on screen) not counted.
    private(set) var framesShown = 0

    private var task: Task<Void, Never>?
    /// Counts players started, so that a player that ends on its own clears only itself.
    private var generation = 0
    private var resume: CheckedContinuation<Void, Never>?
    private let clock: any Clock<Duration>

    init(clock: any Clock<Duration> = ContinuousClock()) {
        self.clock = clock
    }

    /// Plays `source`, replacing any animation under way; `show` draws a frame's cells. `ended` is called when the
    /// player stops on its own (a frame failed to decode, or the picture was still after all), not after `stop`:
    /// the picture shown stays, and nothing may say it plays.
    func play(_ source: any AnimationFrameSource, show: @escaping @MainActor (CellBuffer) -> Void,
              ended: @escaping @MainActor () -> Void = {}) {
        stop()
        framesShown = 0
        generation += 1
        let clock = clock, generation = generation
        task = Task { [weak self] in
            defer { if let self, self.generation == generation { self.task = nil } }
            do {
                // The first frame is on screen already: it only sets when the second is due.
                var wait = try await source.nextFrame().displayTime
                while true {
                    let frame = try await source.nextFrame()
                    try await clock.sleep(for: wait)
                    guard let self, !Task.isCancelled else { return }
                    await self.waitWhilePaused()
                    guard !Task.isCancelled else { return }
                    show(frame.cells)
                    self.framesShown += 1
                    wait = frame.displayTime
                }
            } catch {
                // Cancelled (stopped: said already), or a frame failed to decode: the picture shown stays.
                guard let self, !Task.isCancelled, self.generation == generation else { return }
                ended()
            }
        }
    }

    /// Pauses a playing animation or plays a paused one; does nothing when none plays.
    func togglePause() {
        guard isActive else { return }
        isPaused.toggle()
        if !isPaused { release() }
    }

    /// Ends the animation under way: no frame of it is shown after this.
    func stop() {
        task?.cancel()
        task = nil
        isPaused = false
        release()
    }

    private func waitWhilePaused() async {
        while isPaused, task != nil {
            await withCheckedContinuation { resume = $0 }
        }
    }

    private func release() {
        resume?.resume()
        resume = nil
    }
}
