import Basics
import CCurl
import FoundationEssentials
import Glibc
import Synchronization

/// The thread that drives one curl multi handle, and the transfers it owns.
///
/// Other threads only append commands to the inbox and wake the thread; everything else (the multi handle, the
/// easy handles, the transfers' bytes and continuations) is touched by the engine's thread alone.
final class Engine: @unchecked Sendable {
    enum Command: Sendable {
        case start(Transfer)
        case cancel(Int)
        case shutDown
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex<[Command]>([])
    private let lastID = Atomic<Int>(0)

    // The engine thread's own.
    private var transfers: [Int: Transfer] = [:]
    private var transfersByHandle: [UnsafeMutableRawPointer: Transfer] = [:]

    init() throws {
        guard let multi = ccurl_multi_init() else { throw HTTPFailure.unavailable("libcurl cannot start transfers") }
        self.multi = multi
        guard BackgroundThread.start(name: "ThumbTable HTTP", { [self] in run() }) else {
            throw HTTPFailure.unavailable("cannot start the HTTP thread")
        }
    }

    func nextID() -> Int { lastID.add(1, ordering: .relaxed).newValue }

    /// Hands `transfer` to the engine, unless the calling task is already cancelled. The check and the hand-over
    /// happen under the inbox lock, which the cancellation handler's `submit` also takes: a cancel that comes
    /// first is seen here, and one that comes later is queued behind the start.
    func start(_ transfer: Transfer) {
        let queued = inbox.withLock { inbox -> Bool in
            guard !Task.isCancelled else { return false }
            inbox.append(.start(transfer))
            return true
        }
        if queued {
            ccurl_multi_wakeup(multi)
        } else {
            transfer.continuation.resume(throwing: CancellationError())
        }
    }

    func submit(_ command: Command) {
        inbox.withLock { $0.append(command) }
        ccurl_multi_wakeup(multi)
    }

    // MARK: The engine's thread

    private func run() {
        var active: Int32 = 0
        while true {
            let commands = inbox.withLock { inbox -> [Command] in
                defer { inbox.removeAll() }
                return inbox
            }
            for command in commands {
                switch command {
                case .start(let transfer): begin(transfer)
                case .cancel(let id):
                    // A transfer already ended has nothing left to cancel.
                    if let transfer = transfers[id] { end(transfer, with: .failure(CancellationError())) }
                case .shutDown:
                    for transfer in transfers.values { end(transfer, with: .failure(CancellationError())) }
                    ccurl_multi_cleanup(multi)
                    return
                }
            }
            ccurl_multi_perform(multi, &active)
            var handle: UnsafeMutableRawPointer?
            var code = CURLE_OK
            while ccurl_multi_next_done(multi, &handle, &code) != 0 {
                if let handle, let transfer = transfersByHandle[handle] {
                    end(transfer, with: transfer.outcome(code))
                }
            }
            let nextStall = endStalledTransfers()
            // Sleeps until a socket is ready, curl's next timer, the next stall deadline, or a wake-up from `submit`.
            var wait: Int32 = transfers.isEmpty ? 60_000 : 1_000
            if let nextStall { wait = min(wait, pollMilliseconds(until: nextStall)) }
            var ready: Int32 = 0
            ccurl_multi_poll(multi, wait, &ready)
        }
    }

    /// Ends the transfers that received nothing for their stall timeout; returns the earliest deadline of the rest.
    private func endStalledTransfers() -> ContinuousClock.Instant? {
        let now = ContinuousClock.now
        var next: ContinuousClock.Instant?
        for transfer in Array(transfers.values) {
            guard let deadline = transfer.stallDeadline else { continue }
            if deadline <= now {
                end(transfer, with: .failure(transfer.stalled()))
            } else {
                next = min(next ?? deadline, deadline)
            }
        }
        return next
    }

    private func begin(_ transfer: Transfer) {
        guard let easy = ccurl_easy_init() else {
            transfer.continuation.resume(throwing: HTTPFailure.unavailable("libcurl cannot start a transfer"))
            return
        }
        transfer.configure(easy)
        guard ccurl_multi_add_handle(multi, easy) == CURLM_OK else {
            transfer.release()
            transfer.continuation.resume(throwing: HTTPFailure.unavailable("libcurl cannot start a transfer"))
            return
        }
        transfers[transfer.id] = transfer
        transfersByHandle[easy] = transfer
    }

    /// Takes the transfer out of the multi handle (which closes a connection still mid-response), frees its curl
    /// resources and resumes its caller.
    private func end(_ transfer: Transfer, with outcome: Result<HTTPReply, any Error>) {
        guard let easy = transfer.easy else { return }
        ccurl_multi_remove_handle(multi, easy)
        transfers[transfer.id] = nil
        transfersByHandle[easy] = nil
        transfer.release()
        transfer.continuation.resume(with: outcome)
    }
}
