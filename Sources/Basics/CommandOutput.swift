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
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        // Neither end may leak into the child beyond its stdout, nor into other children started meanwhile.
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }
        let spawned = ChildProcess.spawn(arguments, stdout: writeEnd)
        close(writeEnd)
        guard case .success(let pid) = spawned else { return nil }

        var output: [UInt8] = []
        let end = readUntil(ContinuousClock.now + timeout, from: readEnd) { chunk in
            output += chunk
            return output.count < 65_536
        }
        let finished = end == .closed
        if !finished { kill(pid, SIGKILL) }
        let status = ChildProcess.wait(pid)
        guard finished, status == 0 else { return nil }
        return String(decoding: output, as: UTF8.self)
    }
}
