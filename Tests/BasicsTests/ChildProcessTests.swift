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

    /// The descriptors a child holds beyond 0, 1 and 2, from its own `ls -l /proc/self/fd` (without the one `ls`
    /// opens to read that folder).
    static func inheritedDescriptors() throws -> [String] {
        let listing = try #require(CommandOutput.run(["ls", "-l", "/proc/self/fd"], timeout: .seconds(30)))
        return listing.split(separator: "\n").compactMap { line -> String? in
            guard let arrow = line.range(of: " -> ") else { return nil }
            let number = line[..<arrow.lowerBound].split(separator: " ").last.map(String.init) ?? ""
            let target = line[arrow.upperBound...]
            if ["0", "1", "2"].contains(number) || target.hasPrefix("/proc/") && target.hasSuffix("/fd") { return nil }
            return "\(number) -> \(target)"
        }
    }

    @Test func theChildGetsZeroOneAndTwoOnly() throws {
        // Descriptors opened without close-on-exec, as libcurl opens its connections and socketpairs.
        let tcp = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { for fd in [tcp] + pair + ends { close(fd) } }
        #expect(tcp >= 3 && fcntl(tcp, F_GETFD) & FD_CLOEXEC == 0, "the test's socket is inheritable")
        let inherited = try Self.inheritedDescriptors()
        #expect(inherited.isEmpty, "the child holds \(inherited)")
    }
}
