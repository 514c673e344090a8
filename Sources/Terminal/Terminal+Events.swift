import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Events: keys and mouse actions from the terminal's input, resizes (SIGWINCH) and the routed signals, delivered on
/// the main queue, so an idle screen costs no CPU.
extension Terminal {
    /// The signals whose default action ends the process (signal(7)), SIGPIPE aside: each becomes an event, so the
    /// loop restores the terminal before the process ends. Crashes and the real-time signals cannot wait for the
    /// loop; the emergency restore covers them.
    public static let endingSignals: [Int32] = [
        SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPOLL,
        SIGPWR, SIGSTKFLT,
    ]

    /// Starts delivering input, resize and signal events to `handler` on the main actor.
    public func startEvents(_ handler: @escaping @MainActor ([InputEvent]) -> Void) {
        let input = DispatchSource.makeReadSource(fileDescriptor: device.input, queue: .main)
        input.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                CursesProcess.inputBeat()
                let events = self.readEvents()
                if !events.isEmpty { handler(events) }
            }
        }
        input.resume()
        inputSource = input

        let winch = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        winch.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.updateSize()
                // resizeterm queued a KEY_RESIZE: read it now with any keys, rather than when the next key comes.
                var events = self.readEvents()
                if !events.contains(.resize) { events.append(.resize) }
                handler(events)
            }
        }
        winch.resume()
        resizeSource = winch
        startSignalEvents(handler, pipe: signalPipe)
    }

    /// Delivers the signals routed at start-up (and any that came meanwhile) to `handler`.
    private func startSignalEvents(_ handler: @escaping @MainActor ([InputEvent]) -> Void, pipe fd: Int32) {
        guard fd >= 0 else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                var bytes = [UInt8](repeating: 0, count: 64)
                let count = read(fd, &bytes, bytes.count)
                guard count > 0 else { return }
                // A 0 is the quit watch saying it holds keys it read (see `readEvents`); the rest are signals.
                var events = bytes.prefix(count).filter { $0 != 0 }.map { InputEvent.signal(Int32($0)) }
                if bytes.prefix(count).contains(0), let self, self.isOpen {
                    CursesProcess.inputBeat()
                    events += self.readEvents()
                }
                if !events.isEmpty { handler(events) }
            }
        }
        source.resume()
        signalSource = source
    }

    /// What the user did since the last read; kitty replies go to `onGraphicsReply`.
    func readEvents() -> [InputEvent] {
        let reads = curses.readAll()
        // resizeterm queued the resize read; the size is already current (calling it again would queue another).
        if reads.contains(.resize) { size = curses.size }
        let decoded = decoder.decode(reads, now: DispatchTime.now().uptimeNanoseconds)
        for reply in decoded.replies { onGraphicsReply?(reply) }
        return decoded.events
    }

    /// Follows the window's size: curses', and the cells' pixels when the terminal gives them; the next draw
    /// repaints all.
    func updateSize() {
        curses.followWindowSize()
        size = curses.size
        if let cells = Self.windowCellPixels(of: device.output) { cellPixels = cells }
        invalidate()
    }
}
