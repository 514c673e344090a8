import Terminal

/// The scroll `demo --autoplay` plays by itself: a seeded list of moves, each followed by a pause, that scrolls fast
/// and slowly, down and up, and into the last page, so a viewer sees slots reused and loads cancelled without
/// touching a key. The same seed gives the same steps.
public struct AutoplayScript: Sendable, Equatable {
    /// One move: a key, pressed through the same key bindings as the user's, so it does what that key does.
    public enum Move: Sendable, Equatable {
        /// One row down or up.
        case down, up
        /// One screen down or up.
        case pageDown, pageUp
        /// The last row (`G`).
        case end

        /// The key that makes the move.
        public var key: Key {
            switch self {
            case .down: .down
            case .up: .up
            case .pageDown: .pageDown
            case .pageUp: .pageUp
            case .end: .end
            }
        }
    }

    public struct Step: Sendable, Equatable {
        public var move: Move
        /// How long to wait after the move before the next one.
        public var pause: Duration
    }

    public let steps: [Step]

    /// Draws a script of about `phases` runs of moves (fast or slow, down or up, to the end and back) from
    /// `generator`; seed it (the CLI's `--seed`) to repeat a run.
    public init(phases: Int = 14, using generator: inout some RandomNumberGenerator) {
        var steps: [Step] = []
        func add(_ move: Move, count: Int, pause: ClosedRange<Int>) {
            for _ in 0..<count {
                steps.append(Step(move: move, pause: .milliseconds(Int.random(in: pause, using: &generator))))
            }
        }
        for phase in 0..<max(1, phases) {
            // Every fourth run goes to the end, so the last page is always reached however the draws fall.
            let kind = phase % 4 == 3 ? 4 : Int.random(in: 0...3, using: &generator)
            switch kind {
            case 0: add(.pageDown, count: Int.random(in: 3...8, using: &generator), pause: 40...120)
            case 1: add(.down, count: Int.random(in: 4...10, using: &generator), pause: 120...300)
            case 2: add(.pageUp, count: Int.random(in: 2...5, using: &generator), pause: 40...120)
            case 3: add(.up, count: Int.random(in: 3...8, using: &generator), pause: 120...300)
            default:
                add(.end, count: Int.random(in: 3...5, using: &generator), pause: 250...500)
                add(.pageUp, count: Int.random(in: 2...6, using: &generator), pause: 40...100)
            }
        }
        // It ends at the end of the list, where pages keep arriving.
        add(.end, count: 4, pause: 300...500)
        self.steps = steps
    }

    /// The script's steps with every pause divided by `speed` (the `--autoplay-speed` option; 2 plays twice as fast).
    public func playing(atSpeed speed: Double) -> [Step] {
        guard speed != 1, speed > 0 else { return steps }
        return steps.map { Step(move: $0.move, pause: $0.pause / speed) }
    }
}
