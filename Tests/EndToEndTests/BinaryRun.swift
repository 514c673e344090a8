import Foundation

/// One run of the built `thumbtable` with arguments given as raw bytes (a file name need not be UTF-8), its stdout
/// and stderr kept apart byte for byte.
struct BinaryRun {
    var status: Int32
    var stdout: [UInt8]
    var stderr: [UInt8]
    /// The most memory the run held at once (its peak resident set), in kilobytes, when asked for
    /// (`measuringPeak`); else 0.
    var peakRSSKilobytes = 0

    var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

    static func run(_ arguments: [String], measuringPeak: Bool = false) throws -> BinaryRun {
        try run(bytes: arguments.map { Array($0.utf8) }, measuringPeak: measuringPeak)
    }

    /// GNU time, which measures a run's peak memory truly: it forks, so the run starts from time's own small
    /// process. Our own `wait4` cannot: posix_spawn starts the child in this process's memory (vfork), and Linux
    /// counts that memory's peak into the child's `ru_maxrss` when it execs: a test process of 200 MB (the whole
    /// suite in one process) made every run "peak 200 MB".
    static let gnuTime = "/usr/bin/time"

    /// posix_spawn, not Foundation's Process, whose arguments are Strings; output goes to temporary files.
    /// - Parameter measuringPeak: run under GNU time (`gnuTime`) and keep the run's peak resident set.
    static func run(bytes arguments: [[UInt8]], measuringPeak: Bool = false) throws -> BinaryRun {
        let binary = try TmuxSession.binary()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tt-run-\(UUID().uuidString)")
        let outPath = scratch.path + ".out", errPath = scratch.path + ".err", peakPath = scratch.path + ".peak"
        defer {
            unlink(outPath)
            unlink(errPath)
            unlink(peakPath)
        }
        let command = measuringPeak ? [gnuTime, "-q", "-f", "%M", "-o", peakPath, binary] : [binary]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var argv: [UnsafeMutablePointer<CChar>?] = (command.map { Array($0.utf8) } + arguments).map { bytes in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, byte) in bytes.enumerated() { copy[i] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            return copy
        } + [nil]
        defer { argv.forEach { $0?.deallocate() } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, &argv, environ)
        guard spawned == 0 else {
            throw TmuxSession.TmuxError(description: "cannot start \(command[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        // time's last line is the peak; a line before it may say the run ended on a signal.
        let peak = measuringPeak
            ? (try? String(contentsOfFile: peakPath, encoding: .utf8))?.split(separator: "\n").last.flatMap { Int($0) }
            : 0
        return BinaryRun(status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
                         stdout: [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data()),
                         stderr: [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data()),
                         peakRSSKilobytes: peak ?? Int.max)
    }

    /// What in `bytes` could drive a terminal: bytes that are not UTF-8, and C0 (the line feed aside), DEL and C1
    /// controls. Empty for a stream that is safe to show.
    static func controls(in bytes: [UInt8]) -> [String] {
        guard let text = String(validating: bytes, as: UTF8.self) else { return ["bytes that are not UTF-8"] }
        return text.unicodeScalars.filter { scalar in
            let v = scalar.value
            return (v < 0x20 && v != 0x0A) || (v >= 0x7F && v < 0xA0)
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }
}
