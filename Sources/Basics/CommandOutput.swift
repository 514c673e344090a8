#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs a short command (`tmux display -p …`) and reads what it prints, within a time limit: posix_spawn and a
/// pipe, since Foundation's Process needs all of Foundation.
public enum CommandOutput {
    /// The command's standard output, or nil when it cannot start, fails, or outlives `timeout` (it is then killed).
    /// `arguments[0]` is looked up in PATH; stdin and stderr are /dev/null; at most 64 KB is read.
    public static func run(_ arguments: [String], timeout: Duration) -> String? {
        guard !arguments.isEmpty else { return nil }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        // Neither end may leak into the child beyond its stdout, nor into other children started meanwhile.
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ)
        close(writeEnd)
        guard spawned == 0 else { return nil }

        let deadline = ContinuousClock.now + timeout
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var finished = false
        while !finished, output.count < 65_536 {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { finished = true } else { output += buffer[..<count] }
        }
        if !finished { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // Exited normally with status 0: WIFEXITED and WEXITSTATUS, which Swift cannot call (they are macros).
        guard finished, status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { return nil }
        return String(decoding: output, as: UTF8.self)
    }
}
