import Foundation

/// One run of the built `thumbtable` with arguments given as raw bytes (a file name need not be UTF-8), its stdout
/// and stderr kept apart byte for byte.
struct BinaryRun {
    var status: Int32
    var stdout: [UInt8]
    var stderr: [UInt8]
    /// The most memory the run held at once (its peak resident set, from `wait4`), in kilobytes; 0 when the run
    /// was not waited for with `wait4`.
    var peakRSSKilobytes = 0

    var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

    static func run(_ arguments: [String]) throws -> BinaryRun {
        try run(bytes: arguments.map { Array($0.utf8) })
    }

    /// posix_spawn, not Foundation's Process, whose arguments are Strings; output goes to temporary files.
    static func run(bytes arguments: [[UInt8]]) throws -> BinaryRun {
        let binary = try TmuxSession.binary()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tt-run-\(UUID().uuidString)")
        let outPath = scratch.path + ".out", errPath = scratch.path + ".err"
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var argv: [UnsafeMutablePointer<CChar>?] = ([Array(binary.utf8)] + arguments).map { bytes in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, byte) in bytes.enumerated() { copy[i] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            return copy
        } + [nil]
        defer { argv.forEach { $0?.deallocate() } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary, &actions, nil, &argv, environ)
        guard spawned == 0 else {
            throw TmuxSession.TmuxError(description: "cannot start \(binary): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        return BinaryRun(status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
                         stdout: [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data()),
                         stderr: [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data()),
                         peakRSSKilobytes: usage.ru_maxrss)
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
