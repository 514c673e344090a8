import Foundation
import Graphics
import Synchronization
import Testing
import TestSupport

/// A test terminal on a pty: runs a program with the pty as its terminal, answers detection's queries as a chosen
/// kind of terminal, records every byte the program writes, and reads the kitty graphics commands in them (uploads
/// decoded, chunks joined; deletes).
///
/// Waiting is for a condition on what was received, checked whenever bytes arrive, never a fixed sleep.
final class PtyTerminal: Sendable {
    /// How the terminal answers.
    enum Persona: Sendable, Equatable {
        /// kitty 0.35: `a=q` OK, 10x20-pixel cells, XTVERSION, DA1 without sixel. The uploads whose numbers (1 for
        /// the first) are listed get an `EINVAL` error reply.
        case kitty(rejecting: Set<Int>)
        /// xterm -ti vt340 as measured: DA1 with 4, XTSMGRAPHICS, 6x13-pixel cells; no kitty reply.
        case sixel
        /// Answers nothing.
        case silent
        /// Answers every query with broken sequences and random bytes, never a well-formed DA1.
        case garbage
        /// Answers as kitty, but only once the program has taken the screen (entered the alternate screen), so
        /// after detection has given up whatever the machine's speed: the answers come while the table runs.
        case late
        /// Answers as kitty, each answer `delay` after its query: a terminal over a slow link, or one on a loaded
        /// machine.
        case slow(Duration)

        static let kitty = Persona.kitty(rejecting: [])
    }

    /// One image the program uploaded, its chunks joined and its payload decoded.
    struct Upload: Sendable, Equatable {
        var id: UInt32
        /// The pixel size the command declares (`s`, `v`) and its format (24 RGB, 32 RGBA, 100 PNG).
        var width: Int
        var height: Int
        var format: Int
        /// The cells of its virtual placement (`c`, `r`), and whether it is one (`U=1`).
        var columns: Int
        var rows: Int
        var virtual: Bool
        /// The decoded payload; nil when the base64 did not decode.
        var pixels: [UInt8]?
        var chunks: Int
        /// Where in the recorded output the upload ended.
        var endOffset: Int
    }

    private struct State {
        var output: [UInt8] = []
        var scanner = OutputScanner()
        var uploads: [Upload] = []
        var partial: Upload?
        var partialPayload: [UInt8] = []
        var deletes: [(id: UInt32, offset: Int)] = []
        var repliesWritten = 0
        /// The `late` persona's answers, held until the program enters the alternate screen.
        var heldReplies: [[UInt8]] = []
        var screenTaken = false
        var exitStatus: Int32?
        var waiters: [(id: Int, condition: @Sendable (Snapshot) -> Bool,
                       continuation: CheckedContinuation<Bool, Never>)] = []
        var nextWaiter = 0
    }

    /// What was received so far.
    struct Snapshot: Sendable {
        var output: [UInt8]
        var uploads: [Upload]
        var deletes: [(id: UInt32, offset: Int)]
        var exitStatus: Int32?
        /// The answers written to the program so far (late ones once their delay passed).
        var repliesWritten: Int

        var text: String { String(decoding: output, as: UTF8.self) }

        /// What a failing test shows of what the terminal got: whether the program ended, the graphics commands
        /// read, and the last bytes received, escapes spelled out (`\e`), payloads of pictures shortened.
        var report: String {
            let status = exitStatus.map { "the program ended with status \($0)" } ?? "the program is still running"
            let uploadList = uploads.map { "\($0.id) (\($0.width)x\($0.height) px in \($0.columns)x\($0.rows) cells"
                + "\($0.virtual ? ", virtual" : ""))" }
            return """
                \(status); \(output.count) bytes received, \(repliesWritten) answers written
                kitty uploads: \(uploadList.isEmpty ? "none" : uploadList.joined(separator: ", "))
                kitty deletes: \(deletes.isEmpty ? "none" : deletes.map { "\($0.id)" }.joined(separator: ", "))
                the last bytes received:
                \(PtyTerminal.readable(output.suffix(4000)))
                """
        }
    }

    /// Bytes as a person can read them: text as it is, a line break after each line feed, escape as `\e`, other
    /// controls as `\xNN`, and the payload of a kitty or sixel picture (an APC or DCS string) cut to its first
    /// 60 bytes and its length.
    static func readable(_ bytes: ArraySlice<UInt8>) -> String {
        var out = ""
        var text: [UInt8] = []
        func flush() {
            out += String(decoding: text, as: UTF8.self)
            text.removeAll()
        }
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            // A picture's string: ESC _ (kitty) or ESC P (sixel), up to ESC \ or the end.
            let introducer = i + 1 < bytes.endIndex ? bytes[i + 1] : 0
            if byte == 0x1B, introducer == UInt8(ascii: "_") || introducer == UInt8(ascii: "P") {
                var end = i + 2
                while end < bytes.endIndex,
                      !(bytes[end] == 0x1B && end + 1 < bytes.endIndex && bytes[end + 1] == UInt8(ascii: "\\")) {
                    end += 1
                }
                let body = bytes[(i + 2)..<end]
                flush()
                out += "\\e" + String(UnicodeScalar(bytes[i + 1]))
                    + readable(body.prefix(60)).replacingOccurrences(of: "\n", with: "")
                    + (body.count > 60 ? "…(\(body.count) bytes)" : "") + (end < bytes.endIndex ? "\\e\\" : "")
                i = min(bytes.endIndex, end + 2)
                continue
            }
            switch byte {
            case 0x1B: flush(); out += "\\e"
            case 0x0A: flush(); out += "\\n\n"
            case 0x0D: flush(); out += "\\r"
            case 0..<0x20, 0x7F: flush(); out += "\\x" + String(byte, radix: 16, uppercase: true)
            default: text.append(byte)
            }
            i += 1
        }
        flush()
        return out
    }

    let persona: Persona
    private let master: Int32
    /// Whether the terminal has stopped reading what the program writes (see `pauseReading`).
    private let readingPaused = NSCondition()
    private nonisolated(unsafe) var paused = false
    let pid: pid_t
    private let state = Mutex(State())

    /// Starts `program ARGS` on a new pty of `columns` x `rows` cells, its pixel fields `pixels` (0 when nil), with
    /// `environment` added to a UTF-8 locale.
    init(program: String, arguments: [String], environment: [String: String] = [:], columns: Int = 100,
                rows: Int = 30, pixels: (width: Int, height: Int)? = nil, persona: Persona) throws {
        self.persona = persona
        let master = PtyCalls.openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, PtyCalls.grantpt(master) == 0, PtyCalls.unlockpt(master) == 0,
              let name = PtyCalls.ptsname(master) else {
            throw PtyError(description: "cannot open a pty: \(String(cString: strerror(errno)))")
        }
        self.master = master
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: UInt16(pixels?.width ?? 0),
                           ws_ypixel: UInt16(pixels?.height ?? 0))
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let slavePath = String(cString: name)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // After setsid, opening the pty makes it the program's controlling terminal, as in a real terminal.
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, master)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Nothing blocked or ignored is inherited from the test process: the program sees signals as it would.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGQUIT, SIGCHLD, SIGWINCH] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes,
                                 PtyCalls.spawnSetsid | Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var env = ProcessInfo.processInfo.environment
        for name in ["TMUX", "TMUX_PANE", "KITTY_WINDOW_ID", "TERM_PROGRAM", "COLORTERM", "NO_COLOR"] {
            env[name] = nil
        }
        env.merge(["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"]) { $1 }
        env.merge(environment) { $1 }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            close(master)
            throw PtyError(description: "cannot start \(program): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        let thread = Thread { [self] in self.readLoop() }
        thread.start()
    }

    struct PtyError: Error, CustomStringConvertible {
        var description: String
    }

    deinit {
        kill(pid, SIGKILL)
        close(master)
    }

    /// Resizes the terminal, in cells and in pixels, as a window resize or a font size change does: the kernel sends
    /// the program SIGWINCH.
    func resize(columns: Int, rows: Int, pixels: (width: Int, height: Int)) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: UInt16(pixels.width),
                           ws_ypixel: UInt16(pixels.height))
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Types `text` (keys) into the terminal.
    func type(_ text: String) {
        write(Array(text.utf8))
    }

    /// Everything received so far.
    var snapshot: Snapshot {
        state.withLock { Snapshot(output: $0.output, uploads: $0.uploads, deletes: $0.deletes,
                                  exitStatus: $0.exitStatus, repliesWritten: $0.repliesWritten) }
    }

    /// Waits until `condition` holds on what was received (checked as bytes arrive); false after `timeout`, when the
    /// test also gets an issue at the caller saying what the terminal received (`report`): one failure in CI is
    /// enough to see why.
    @discardableResult
    func wait(timeout: Duration = EndToEnd.deadline, sourceLocation: SourceLocation = #_sourceLocation,
                     until condition: @escaping @Sendable (Snapshot) -> Bool) async -> Bool {
        let held = await waitQuietly(timeout: timeout, until: condition)
        if !held {
            Issue.record("the terminal never got what the test waited for, in \(timeout); it got:\n\(snapshot.report)",
                         sourceLocation: sourceLocation)
        }
        return held
    }

    /// `wait` without the issue: for a wait whose timing out is not a failure (waking up on the next bytes or after
    /// a while, whichever comes first).
    @discardableResult
    func waitQuietly(timeout: Duration, until condition: @escaping @Sendable (Snapshot) -> Bool) async -> Bool {
        let id = state.withLock { s in
            s.nextWaiter += 1
            return s.nextWaiter
        }
        return await withCheckedContinuation { continuation in
            let holds = state.withLock { s in
                let snapshot = Snapshot(output: s.output, uploads: s.uploads, deletes: s.deletes,
                                        exitStatus: s.exitStatus, repliesWritten: s.repliesWritten)
                if condition(snapshot) { return true }
                s.waiters.append((id, condition, continuation))
                return false
            }
            if holds {
                continuation.resume(returning: true)
                return
            }
            Task {
                try? await Task.sleep(for: timeout)
                let expired = self.state.withLock { s in
                    s.waiters.firstIndex { $0.id == id }.map { s.waiters.remove(at: $0).continuation }
                }
                expired?.resume(returning: false)
            }
        }
    }

    /// Waits for the program to end; its exit status (128 + signal for a signal), or nil (and an issue saying what
    /// the terminal got) after `timeout`.
    func exitStatus(timeout: Duration = EndToEnd.deadline,
                           sourceLocation: SourceLocation = #_sourceLocation) async -> Int32? {
        await wait(timeout: timeout, sourceLocation: sourceLocation) { $0.exitStatus != nil }
        return snapshot.exitStatus
    }

    // MARK: Reading

    /// Stops reading what the program writes, as a terminal that cannot keep up: once the pty's buffer is full,
    /// the program's writes block.
    func pauseReading() {
        readingPaused.lock()
        paused = true
        readingPaused.unlock()
    }

    /// Reads again what the program writes (and what it wrote meanwhile).
    func resumeReading() {
        readingPaused.lock()
        paused = false
        readingPaused.signal()
        readingPaused.unlock()
    }

    /// How many bytes the program wrote that the terminal has not read yet.
    var unreadOutput: Int {
        var count: Int32 = 0
        return ioctl(master, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            readingPaused.lock()
            while paused { readingPaused.wait() }
            readingPaused.unlock()
            let count = read(master, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            received(Array(buffer[0..<count]))
        }
        // The program closed the pty (EIO once it ended): collect its status.
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        let code = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let ready = state.withLock { s in
            s.exitStatus = code
            return readyWaiters(&s)
        }
        ready.forEach { $0.resume(returning: true) }
    }

    private func received(_ bytes: [UInt8]) {
        var replies: [[UInt8]] = []
        let ready = state.withLock { s in
            for byte in bytes {
                s.output.append(byte)
                guard let sequence = s.scanner.step(byte) else { continue }
                if case .csi("?1049h") = sequence, case .late = persona, !s.screenTaken {
                    s.screenTaken = true
                    replies += s.heldReplies
                    s.heldReplies = []
                    continue
                }
                guard let reply = handle(sequence, &s) else { continue }
                if case .late = persona, !s.screenTaken {
                    s.heldReplies.append(reply)
                } else {
                    replies.append(reply)
                }
            }
            return readyWaiters(&s)
        }
        for reply in replies {
            if case .slow(let delay) = persona {
                let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) * 1e-18
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in written(reply) }
            } else {
                written(reply)
            }
        }
        ready.forEach { $0.resume(returning: true) }
    }

    private func readyWaiters(_ s: inout State) -> [CheckedContinuation<Bool, Never>] {
        let snapshot = Snapshot(output: s.output, uploads: s.uploads, deletes: s.deletes, exitStatus: s.exitStatus,
                                repliesWritten: s.repliesWritten)
        var ready: [CheckedContinuation<Bool, Never>] = []
        s.waiters.removeAll { waiter in
            guard waiter.condition(snapshot) else { return false }
            ready.append(waiter.continuation)
            return true
        }
        return ready
    }

    private func written(_ reply: [UInt8]) {
        write(reply)
        let ready = state.withLock { s in
            s.repliesWritten += 1
            return readyWaiters(&s)
        }
        ready.forEach { $0.resume(returning: true) }
    }

    private func write(_ bytes: [UInt8]) {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Foundation.write(master, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }

    // MARK: Answers

    private static let esc = "\u{1B}"

    /// The reply to one complete sequence the program wrote, as the persona answers it.
    private func handle(_ sequence: OutputScanner.Sequence, _ s: inout State) -> [UInt8]? {
        switch sequence {
        case .csi(let body):
            return queryReply(body)
        case .apc(let body):
            return kittyCommand(body, &s)
        }
    }

    private func queryReply(_ body: String) -> [UInt8]? {
        let e = Self.esc
        let kitty: [String: String] = [
            "16t": "\(e)[6;20;10t", ">q": "\(e)P>|kitty(0.35.2)\(e)\\", "c": "\(e)[?62;c",
        ]
        let sixel: [String: String] = [
            "16t": "\(e)[6;13;6t", ">q": "\(e)P>|XTerm(379)\(e)\\", "c": "\(e)[?63;1;2;4;6;9;15;16;22;28c",
            "?1;1;0S": "\(e)[?1;0;1024S", "?2;1;0S": "\(e)[?2;0;1000;1000S",
        ]
        let text: String?
        switch persona {
        case .kitty, .late, .slow: text = kitty[body]
        case .sixel: text = sixel[body]
        case .silent: text = nil
        case .garbage:
            guard ["16t", ">q", "c", "?1;1;0S", "?2;1;0S"].contains(body) else { return nil }
            var junk = Array("\(e)[?6x;;c\(e)_Gi=31;O\(e)[6;0;0t\u{9B}\(e)P>|".utf8)
            var generator = SystemRandomNumberGenerator()
            // No ESC or `c`: nothing in the noise can complete a DA1 answer by chance. No BEL, CAN, SUB or C1
            // control either, and the string closed at the end: the noise stays inside the DCS string it starts,
            // so whenever it arrives (during detection, or after it on a loaded machine) none of it is read as a key
            // and the string never stays open to swallow the keys typed after it.
            let ends: Set<UInt8> = [0x07, 0x18, 0x1A, 0x1B, 0x63]
            junk += (0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) }
                .filter { !ends.contains($0) && !(0x80...0x9F).contains($0) }
            junk += Array("\(e)\\".utf8)
            return junk
        }
        return text.map { Array($0.utf8) }
    }

    /// Reads a kitty graphics command: the query is answered as the persona does, uploads collected, deletes noted.
    private func kittyCommand(_ body: [UInt8], _ s: inout State) -> [UInt8]? {
        guard body.first == UInt8(ascii: "G") else { return nil }
        let parts = body.dropFirst().split(separator: UInt8(ascii: ";"), maxSplits: 1, omittingEmptySubsequences: false)
        var keys: [String: String] = [:]
        for pair in parts[0].split(separator: UInt8(ascii: ",")) {
            let kv = pair.split(separator: UInt8(ascii: "="), maxSplits: 1)
            guard kv.count == 2 else { continue }
            keys[String(decoding: kv[0], as: UTF8.self)] = String(decoding: kv[1], as: UTF8.self)
        }
        let payload = parts.count > 1 ? Array(parts[1]) : []
        let more = keys["m"] == "1"
        switch keys["a"] {
        case "q":
            switch persona {
            case .kitty, .late, .slow: return Array("\(Self.esc)_Gi=\(keys["i"] ?? "0");OK\(Self.esc)\\".utf8)
            default: return nil
            }
        case "T", "t":
            s.partial = Upload(id: UInt32(keys["i"] ?? "") ?? 0, width: Int(keys["s"] ?? "") ?? 0,
                               height: Int(keys["v"] ?? "") ?? 0, format: Int(keys["f"] ?? "32") ?? 32,
                               columns: Int(keys["c"] ?? "") ?? 0, rows: Int(keys["r"] ?? "") ?? 0,
                               virtual: keys["U"] == "1", pixels: nil, chunks: 0, endOffset: 0)
            s.partialPayload = []
        case "d":
            s.deletes.append((UInt32(keys["i"] ?? "") ?? 0, s.output.count))
            s.partial = nil
            return nil
        case nil:
            guard s.partial != nil else { return nil }
        default:
            return nil
        }
        s.partial!.chunks += 1
        s.partialPayload += payload
        guard !more, var upload = s.partial else { return nil }
        upload.pixels = Base64.decode(s.partialPayload)
        upload.endOffset = s.output.count
        s.uploads.append(upload)
        s.partial = nil
        if case .kitty(let rejecting) = persona, rejecting.contains(s.uploads.count) {
            return Array("\(Self.esc)_Gi=\(upload.id);EINVAL:rejected by the test terminal\(Self.esc)\\".utf8)
        }
        return nil
    }
}

/// Finds the escape sequences in what a program writes: CSI sequences (as their parameter and final bytes) and APC
/// strings (their bodies). Everything else passes.
struct OutputScanner {
    enum Sequence {
        case csi(String)
        case apc([UInt8])
    }

    private enum State { case ground, escape, csi, apc, apcEscape, other, otherEscape }
    private var state = State.ground
    private var body: [UInt8] = []

    mutating func step(_ byte: UInt8) -> Sequence? {
        switch state {
        case .ground:
            if byte == 0x1B { state = .escape }
        case .escape:
            body.removeAll(keepingCapacity: true)
            switch byte {
            case UInt8(ascii: "["): state = .csi
            case UInt8(ascii: "_"): state = .apc
            case UInt8(ascii: "P"), UInt8(ascii: "]"): state = .other
            case 0x1B: state = .escape
            default: state = .ground
            }
        case .csi:
            if (0x40...0x7E).contains(byte) {
                state = .ground
                body.append(byte)
                return .csi(String(decoding: body, as: UTF8.self))
            }
            if byte == 0x1B { state = .escape } else { body.append(byte) }
        case .apc:
            if byte == 0x1B { state = .apcEscape } else { body.append(byte) }
        case .apcEscape:
            state = .ground
            if byte == UInt8(ascii: "\\") { return .apc(body) }
        case .other:
            if byte == 0x1B { state = .otherEscape } else if byte == 0x07 { state = .ground }
        case .otherEscape:
            state = byte == UInt8(ascii: "\\") ? .ground : .other
        }
        return nil
    }
}
