import App
import DemoServer
import Testing

/// The autoplay's script: drawn from a seed, the same seed gives the same steps; it scrolls fast and slowly, down
/// and up, and reaches the end of the list.
@Suite struct AutoplayScriptTests {
    func script(seed: UInt64, phases: Int = 14) -> AutoplayScript {
        var generator = SplitMix64(seed: seed)
        return AutoplayScript(phases: phases, using: &generator)
    }

    @Test func theSameSeedGivesTheSameSteps() {
        #expect(script(seed: 7) == script(seed: 7))
        #expect(script(seed: 7) != script(seed: 8))
    }

    @Test(arguments: [1, 7, 42, 1234] as [UInt64])
    func itScrollsFastAndSlowlyBothWaysAndEndsAtTheEnd(seed: UInt64) {
        let steps = script(seed: seed).steps
        let moves = steps.map(\.move)
        #expect(moves.contains(.pageDown))
        #expect(moves.contains(.pageUp))
        #expect(moves.contains(.end))
        // Fast runs page on quickly, slow ones linger on each row.
        let paces = steps.map(\.pause)
        #expect(paces.contains { $0 <= .milliseconds(120) })
        #expect(paces.contains { $0 >= .milliseconds(250) })
        #expect(moves.suffix(4).allSatisfy { $0 == .end })
    }

    @Test func aFasterSpeedShortensEveryPauseAndKeepsTheMoves() {
        let script = script(seed: 3)
        let fast = script.playing(atSpeed: 4)
        #expect(fast.map(\.move) == script.steps.map(\.move))
        for (slow, quick) in zip(script.steps, fast) { #expect(quick.pause == slow.pause / 4) }
    }
}
