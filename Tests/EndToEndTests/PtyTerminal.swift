import Foundation
import Graphics
import Synchronization
import Testing
import TestSupport

/// A test terminal on a pty: runs a program with the pty as its terminal, answers detection's queries as a chosen
/// kind of terminal (`Persona`), records every byte the program writes, and reads the pictures in them
/// (`PtyTerminal+Graphics`: kitty uploads decoded, chunks joined; placements, moves and deletes by id; iTerm2 images).
///
/// Waiting is for a condition on what was received, checked whenever bytes arrive, never a fixed sleep.
final class PtyTerminal: Sendable {
    struct State {
        var output: [UInt8] = []
        /// When each read of the program's output arrived: the output's length before it, and the time.
        var arrivals: [(offset: Int, at: ContinuousClock.Instant)] = []
        var scanner = OutputScanner()
        var uploads: [Upload] = []
        var partial: Upload?
        var partialPayload: [UInt8] = []
        var deletes: [(id: UInt32, offset: Int)] = []
        /// The kitty placements on screen now, by image and placement id, and every placement, move and delete.
        var placements: [PlacementKey: Placement] = [:]
        var placementEvents: [PlacementEvent] = []
        var inlineImages: [InlineImage] = []
        var repliesWritten = 0
        /// The `late` persona's answers, held until the program enters the alternate screen.
        var heldReplies: [[UInt8]] = []
        var screenTaken = false
        var exitStatus: Int32?
        var waiters: [(id: Int, condition: @Sendable (Snapshot) -> Bool,
                       continuation: CheckedContinuation<Bool, Never>)] = []
        var nextWaiter = 0
    }

    let persona: Persona
    private let master: Int32
    /// Whether the terminal has stopped reading what the program writes (see `pauseReading`).
    private let readingPaused = NSCondition()
    private nonisolated(unsafe) var paused = false
    let pid: pid_t
    let state = Mutex(State())

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
        state.withLock { Snapshot($0) }
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
                if condition(Snapshot(s)) { return true }
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
        let now = ContinuousClock.now
        let ready = state.withLock { s in
            s.arrivals.append((s.output.count, now))
            for byte in bytes {
                s.output.append(byte)
                guard let sequence = s.scanner.step(byte) else { continue }
                if case .csi("?1049h") = sequence, case .late = persona, !s.screenTaken {
                    s.screenTaken = true
                    replies += s.heldReplies
                    s.heldReplies = []
                    continue
                }
                guard let reply = handle(sequence, cursor: s.scanner.cursor, &s) else { continue }
                if case .late = persona, !s.screenTaken {
                    s.heldReplies.append(reply)
                } else {
                    replies.append(reply)
                }
            }
            return readyWaiters(&s)
        }
        for (index, reply) in replies.enumerated() {
            if case .slow(let delay) = persona {
                // The first answer at once, each next one `delay` after the one before: a terminal that has begun
                // answering and takes longer than detection's first budget to finish.
                let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) * 1e-18
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds * Double(index)) { [self] in
                    written(reply)
                }
            } else {
                written(reply)
            }
        }
        ready.forEach { $0.resume(returning: true) }
    }

    private func readyWaiters(_ s: inout State) -> [CheckedContinuation<Bool, Never>] {
        let snapshot = Snapshot(s)
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

    func write(_ bytes: [UInt8]) {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Foundation.write(master, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }
}
