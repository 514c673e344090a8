import Dispatch
import Terminal

/// Plays an `AutoplayScript` on a timer on the main queue: each step's key is pressed (on both halves of
/// `demo --compare`, as a user's key is), then the next waits for the step's pause. After the last step it waits for the screen to settle
/// (every picture on screen loaded or failed), at most `settleTimeout`, and then says it finished.
@MainActor
final class Autoplay {
    enum Outcome: Sendable, Equatable {
        /// Every step was played and the screen settled (or the wait for it ran out).
        case finished
        /// A key stopped it; the user goes on by hand.
        case stopped
    }

    /// How long the end waits for the pictures on screen before it finishes anyway.
    static let settleTimeout: Duration = .seconds(10)

    private var steps: ArraySlice<AutoplayScript.Step>
    /// Presses a key as the user would, without stopping the autoplay.
    private let press: @MainActor (Key) -> Void
    /// Asks for a frame, so the end's wait sees whether the screen settled.
    private let redraw: @MainActor () -> Void
    private var timer: DispatchSourceTimer?
    private let ended: @MainActor (Outcome) -> Void
    /// Set after the last step: the app's frames check whether the screen settled.
    private(set) var isSettling = false
    private(set) var outcome: Outcome?

    init(steps: [AutoplayScript.Step], press: @escaping @MainActor (Key) -> Void,
         redraw: @escaping @MainActor () -> Void, ended: @escaping @MainActor (Outcome) -> Void) {
        self.steps = steps[...]
        self.press = press
        self.redraw = redraw
        self.ended = ended
    }

    func start() {
        schedule(after: .zero)
    }

    /// Stops before the end (a key): the tables stay where they are.
    func stop() {
        end(.stopped)
    }

    /// Called after each frame: finishes once the script is played and the screen shows all it will.
    func frameDrawn(settled: Bool) {
        if isSettling, settled { end(.finished) }
    }

    private func schedule(after delay: Duration) {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        timer.schedule(deadline: .now() + .nanoseconds(Int(nanoseconds)), leeway: .milliseconds(5))
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.step() }
        }
        timer.resume()
        self.timer = timer
    }

    private func step() {
        timer?.cancel()
        timer = nil
        guard outcome == nil else { return }
        // The wait for the pictures has a bound: a dead server must not keep the demo running.
        if isSettling { return end(.finished) }
        guard let step = steps.popFirst() else {
            isSettling = true
            schedule(after: Self.settleTimeout)
            // A frame checks whether the screen settled already.
            redraw()
            return
        }
        press(step.move.key)
        schedule(after: step.pause)
    }

    private func end(_ outcome: Outcome) {
        guard self.outcome == nil else { return }
        self.outcome = outcome
        timer?.cancel()
        timer = nil
        ended(outcome)
    }
}
