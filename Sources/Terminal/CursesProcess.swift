import CNcursesw

/// What the terminal code does to the whole process, through CNcursesw's shims: signals routed to a pipe, the quit
/// watch, the emergency restore, stopping for Ctrl-Z; and terminfo read before curses starts.
///
/// With `CursesScreen`, the only code that calls CNcursesw.
enum CursesProcess {
    /// Routes `signals` to a pipe (its read end is returned; -1 if it could not be made) and starts the quit watch
    /// on the terminal's input `input`. A dispatch signal source cannot be used, as libdispatch leaves SIGPROF
    /// unblocked in its threads and its handler then bounces the signal between them for ever, and the quit watch
    /// needs to see the signals too.
    static func routeSignals(_ signals: [Int32], watchingInput input: Int32) -> Int32 {
        signals.withUnsafeBufferPointer { cnc_start_signal_events($0.baseAddress, Int32($0.count), input) }
    }

    /// Tells the quit watch that the loop read its keys.
    static func inputBeat() {
        cnc_input_beat()
    }

    /// Whether the quit watch takes a q the loop left unread as a request to quit.
    static func setQQuits(_ quits: Bool) {
        cnc_set_q_quits(quits ? 1 : 0)
    }

    /// The loop has ended and given the terminal back: the quit watch stands down.
    static func quitWatchDone() {
        cnc_quit_watch_done()
    }

    /// Whether curses holds the terminal now, for the emergency restore.
    static func setTerminalActive(_ active: Bool) {
        cnc_set_terminal_active(active ? 1 : 0)
    }

    /// Stops the process as Ctrl-Z would, returning once it is continued.
    static func stop() {
        cnc_stop_process()
    }

    /// Saves the terminal's modes before curses, and the bytes that undo what curses does (colours, mouse reports,
    /// hidden cursor, alternate screen), for the fatal-signal handler; installs that handler.
    static func saveEmergencyRestore(of device: TerminalDevice) {
        let reset = "\u{1B}[0m\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1006l\u{1B}[?25h\u{1B}[?1049l\r\n"
        let bytes = Array(reset.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                cnc_save_terminal_state(device.input, device.output, $0.baseAddress, $0.count)
            }
        }
        cnc_install_fatal_signal_handlers()
    }

    /// What terminfo says of an entry's colours; nil when it has no such entry. Call it before curses starts.
    static func probe(_ name: String) -> ColorSetup.EntryColors? {
        var colors: Int32 = 0, indexed: Int32 = 0
        guard cnc_probe_entry(name, &colors, &indexed) == 0 else { return nil }
        return ColorSetup.EntryColors(colors: Int(colors), indexedBelow: Int(indexed))
    }

    /// Whether terminfo entry `name` can run a full screen: `cnc_check_terminal`'s status (0 yes, 1 no name, 2 not
    /// in terminfo, 3 no cursor addressing).
    static func checkTerminal(_ name: String) -> Int32 {
        cnc_check_terminal(name)
    }
}
