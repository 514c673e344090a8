import Basics
import Foundation
import Testing

/// Starting commands without Foundation's Process: argv without a shell, the exit status as a shell shows it, output
/// read within a time limit, signals back to their defaults in the child; and poll timeouts from a deadline.
@Suite struct ChildProcessTests {
    func status(_ arguments: [String]) throws -> Int32 {
        let pid = try ChildProcess.spawn(arguments).get()
        return ChildProcess.wait(pid)
    }

    @Test func theStatusIsTheExitStatusOr128PlusTheSignal() throws {
        #expect(try status(["sh", "-c", "exit 3"]) == 3)
        #expect(try status(["true"]) == 0)
        #expect(try status(["sh", "-c", "kill -TERM $$"]) == 128 + SIGTERM)
    }

    @Test func aMissingCommandIsENOENT() {
        #expect(throws: ChildProcess.SpawnError(number: ENOENT)) { try ChildProcess.spawn(["/no/such/command"]).get() }
        #expect(throws: ChildProcess.SpawnError(number: ENOENT)) { try ChildProcess.spawn([]).get() }
    }

    @Test func outputIsReadAndArgumentsAreNeverASemicolonAway() {
        #expect(CommandOutput.run(["printf", "%s|", "a b", "; echo no"], timeout: .seconds(10)) == "a b|; echo no|")
        #expect(CommandOutput.run(["sh", "-c", "echo x; exit 1"], timeout: .seconds(10)) == nil, "a failure")
        #expect(CommandOutput.run(["/no/such/command"], timeout: .seconds(10)) == nil)
    }

    @Test func aCommandThatOutlivesItsTimeIsKilled() {
        let clock = ContinuousClock()
        let start = clock.now
        #expect(CommandOutput.run(["sleep", "30"], timeout: .milliseconds(200)) == nil)
        #expect(clock.now - start < .seconds(20), "it did not wait for the command")
    }

    @Test func theChildStartsWithNoSignalIgnoredOrBlocked() throws {
        // This process ignores SIGPIPE (as ThumbTable does) and here SIGUSR2 too; the child must not inherit them.
        let previous = signal(SIGUSR2, SIG_IGN)
        defer { signal(SIGUSR2, previous) }
        // grep reads its own status: a shell would block every signal for a moment whenever it forks.
        let status = CommandOutput.run(["grep", "-E", "^Sig(Ign|Blk)", "/proc/self/status"], timeout: .seconds(10))
        let masks = try #require(status).split(separator: "\n").compactMap { line in
            line.split(separator: "\t").last.flatMap { UInt64($0, radix: 16) }
        }
        // The standard signals, 1 to 31; glibc keeps two real-time signals of its own (32, 33) ignored.
        let standard: UInt64 = 1 << 31 - 1
        #expect(masks.count == 2)
        #expect(masks.allSatisfy { $0 & standard == 0 }, "blocked, then ignored: \(masks.map { String($0, radix: 16) })")
    }

    @Test func pollTimeoutsRoundUpAndStopAtTheDeadline() {
        let now = ContinuousClock.now
        #expect(pollMilliseconds(until: now - .seconds(1)) == 0)
        #expect(pollMilliseconds(until: now) == 0)
        let soon = pollMilliseconds(until: ContinuousClock.now + .microseconds(500))
        #expect(soon == 1, "half a millisecond waits one, not none")
        let later = pollMilliseconds(until: ContinuousClock.now + .milliseconds(1500))
        #expect((1499...1500).contains(later))
        #expect(pollMilliseconds(until: ContinuousClock.now + .seconds(100_000_000)) == Int32.max)
    }
}
