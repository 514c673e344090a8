import Cells
import Synchronization
@testable import Table
import Testing

/// Issue 30, item 3: the detail pane's player shows an animation's frames at their own times, holds one while
/// paused, and shows nothing once stopped.
@MainActor @Suite struct PaneAnimationTests {
    /// Frames of one cell each, numbered, with the given display times; counts how often it was asked.
    final class NumberedFrames: AnimationFrameSource {
        let times: [Duration]
        let failsAt: Int?
        private let asked = Mutex(0)

        init(times: [Duration], failsAt: Int? = nil) {
            self.times = times
            self.failsAt = failsAt
        }

        var askedCount: Int { asked.withLock { $0 } }

        static func cells(_ number: Int) -> CellBuffer {
            var buffer = CellBuffer(width: 1, height: 1)
            buffer.put(String(number), x: 0, y: 0)
            return buffer
        }

        func nextFrame() async throws -> AnimatedCells {
            let index = asked.withLock { count in defer { count += 1 }; return count }
            if index == failsAt { throw CancellationError() }
            return AnimatedCells(cells: Self.cells(index % times.count), displayTime: times[index % times.count])
        }
    }

    let clock = SteppedClock()

    @Test func framesShowInOrderEachAfterThePreviousOnesTime() async throws {
        let player = PaneAnimation(clock: clock)
        var shown: [CellBuffer] = []
        player.play(NumberedFrames(times: [.milliseconds(100), .milliseconds(40), .milliseconds(70)])) {
            shown.append($0)
        }
        // The first frame is on screen: the second waits for its 100 ms, the third for the second's 40, and the
        // first comes back after the third's 70.
        var waits: [Duration] = []
        for _ in 0..<4 {
            waits.append(await clock.nextSleeper())
            clock.wake()
        }
        _ = await clock.nextSleeper()
        #expect(waits == [.milliseconds(100), .milliseconds(40), .milliseconds(70), .milliseconds(100)])
        #expect(shown == [1, 2, 0, 1].map(NumberedFrames.cells))
        #expect(player.framesShown == 4)
        player.stop()
    }

    @Test func aPausedPlayerHoldsItsFrameUntilPlayedAgain() async throws {
        let player = PaneAnimation(clock: clock)
        var shown: [CellBuffer] = []
        player.play(NumberedFrames(times: [.milliseconds(50), .milliseconds(50)])) { shown.append($0) }
        _ = await clock.nextSleeper()
        player.togglePause()
        clock.wake()
        // Its time has come, but the frame waits: the player asks the clock nothing more and shows nothing.
        for _ in 0..<50 { await Task.yield() }
        #expect(shown.isEmpty && player.isPaused && clock.sleepers == 0)
        player.togglePause()
        _ = await clock.nextSleeper()
        #expect(shown == [NumberedFrames.cells(1)])
        player.stop()
    }

    @Test func nothingShowsAfterStop() async throws {
        let player = PaneAnimation(clock: clock)
        let source = NumberedFrames(times: [.milliseconds(20)])
        var shown = 0
        player.play(source) { _ in shown += 1 }
        _ = await clock.nextSleeper()
        player.stop()
        #expect(!player.isActive)
        clock.wake()
        for _ in 0..<50 { await Task.yield() }
        #expect(shown == 0 && source.askedCount == 2, "the frame read before the stop is dropped, none read after")
    }

    @Test func aFrameThatFailsEndsThePlayerAndLeavesThePicture() async throws {
        let player = PaneAnimation(clock: clock)
        var shown = 0
        var ended = 0
        player.play(NumberedFrames(times: [.milliseconds(20)], failsAt: 1)) { _ in shown += 1 } ended: { ended += 1 }
        while player.isActive { await Task.yield() }
        #expect(shown == 0 && clock.sleepers == 0)
        #expect(ended == 1, "said, so that the pane does not say it plays")
    }

    @Test func aStoppedPlayerDoesNotSayItEndedOnItsOwn() async throws {
        let player = PaneAnimation(clock: clock)
        var ended = 0
        player.play(NumberedFrames(times: [.milliseconds(20)])) { _ in } ended: { ended += 1 }
        _ = await clock.nextSleeper()
        player.stop()
        clock.wake()
        for _ in 0..<50 { await Task.yield() }
        #expect(ended == 0)
    }
}

/// A clock whose sleeps wait for the test: `nextSleeper` awaits a sleep and answers how long it asked for, `wake`
/// ends it.
final class SteppedClock: Clock, Sendable {
    typealias Duration = Swift.Duration
    typealias Instant = ContinuousClock.Instant

    private struct State {
        var sleeping: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
        var asked: [Duration] = []
        var waiter: CheckedContinuation<Duration, Never>?
        var nextID = 0
    }
    private let state = Mutex(State())
    let now = ContinuousClock.now
    var minimumResolution: Duration { .nanoseconds(1) }

    /// Sleeps under way.
    var sleepers: Int { state.withLock { $0.sleeping.count } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in defer { state.nextID += 1 }; return state.nextID }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                state.withLock { state in
                    state.sleeping.append((id, continuation))
                    if let waiter = state.waiter {
                        state.waiter = nil
                        waiter.resume(returning: deadline - now)
                    } else {
                        state.asked.append(deadline - now)
                    }
                }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.sleeping.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleeping.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Waits for the next sleep to begin (or answers one that began already): how long it sleeps.
    func nextSleeper() async -> Duration {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                if !state.asked.isEmpty {
                    continuation.resume(returning: state.asked.removeFirst())
                } else {
                    state.waiter = continuation
                }
            }
        }
    }

    /// Ends the oldest sleep.
    func wake() {
        let sleeper = state.withLock { state in state.sleeping.isEmpty ? nil : state.sleeping.removeFirst() }
        sleeper?.continuation.resume()
    }
}
