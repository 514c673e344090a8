import CNcursesw
import Cells
#if canImport(Glibc)
import Glibc
#endif

// The only Swift file that imports CNcursesw, and so the only one that calls ncursesw: the shim's state (the quit
// watch, the keys it holds back, the emergency restore) lives in function-local statics of `static inline`
// functions, which every Swift file importing the module emits a copy of, each with statics of its own. With the
// calls spread over two files, the keys the quit watch held back went into one copy and the loop asked another.

/// One curses screen on a terminal's descriptors: its modes, its window and colour pairs (the `CursesSurface` the
/// screen writer draws on), and its input, read as `CursesRead`s. Everything runs on the main actor.
@MainActor
final class CursesScreen: CursesSurface {
    private let screen: OpaquePointer
    /// The stream curses draws through, which `send` writes after.
    private let output: UnsafeMutablePointer<FILE>
    let device: TerminalDevice

    /// Opens curses on `device` with terminfo entry `entry`; nil when curses cannot use the entry.
    init?(entry: String, device: TerminalDevice) {
        guard let output = cnc_stream(device.output, "w"), let input = cnc_stream(device.input, "r"),
              let screen = cnc_newterm(entry, output, input) else { return nil }
        self.screen = screen
        self.output = output
        self.device = device
        set_term(screen)
    }

    /// Raw keys (Ctrl-C arrives as a key), no echo, keypad and mouse decoding, no waiting for input, hidden cursor.
    func takeKeysAndMouse() {
        raw()
        noecho()
        nonl()
        keypad(cnc_stdscr(), true)
        nodelay(cnc_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        leaveok(cnc_stdscr(), true)
        // Raw press and release reports; clicks and double clicks are told apart by `InputDecoder`, without curses
        // waiting.
        mouseinterval(0)
        mousemask(cnc_mouse_all(), nil)
    }

    /// Starts curses' colours on the terminal's default ones; false when the entry has none.
    func startColors() -> Bool {
        guard has_colors() else { return false }
        start_color()
        use_default_colors()
        return true
    }

    /// The entry's number of colours and of colour pairs (COLORS, COLOR_PAIRS), once colours are started.
    var colors: Int { Int(cnc_colors()) }
    var pairLimit: Int32 { cnc_color_pairs() }

    /// The size curses draws at.
    var size: Terminal.Size { Terminal.Size(columns: Int(cnc_cols()), rows: Int(cnc_lines())) }

    /// Reads the window size from the terminal and has curses draw at it.
    func followWindowSize() {
        var rows: Int32 = 0, cols: Int32 = 0
        if cnc_window_size(device.output, &rows, &cols) == 0 { resizeterm(rows, cols) }
    }

    /// Leaves curses' modes: the alternate screen, the mouse reports, raw keys (a later `refresh` takes them again).
    func end() {
        endwin()
    }

    /// Turns mouse reports off, before the screen is given back for good.
    func stopMouse() {
        mousemask(0, nil)
    }

    /// Frees the screen.
    func delete() {
        delscreen(screen)
    }

    /// Sets curses' modes again after the process was stopped from outside with the screen taken.
    func resetModes() {
        reset_prog_mode()
    }

    /// Sends what changed (after `end`, also takes curses' modes again).
    func update() {
        doupdate()
    }

    /// Has the next refresh repaint the whole screen.
    func repaintAll() {
        clearok(cnc_stdscr(), true)
    }

    /// Has the next refresh rewrite every cell of `lines`, changed or not: pictures in pixels drawn over them are
    /// gone after it (curses otherwise writes only the cells it believes changed).
    func repaint(lines: Range<Int>) {
        guard !lines.isEmpty else { return }
        wredrawln(cnc_stdscr(), Int32(lines.lowerBound), Int32(lines.count))
    }

    /// Writes `bytes` after what curses has drawn so far.
    func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { cnc_send(output, $0.baseAddress, $0.count) }
    }

    // MARK: CursesSurface

    func erase() {
        werase(cnc_stdscr())
    }

    func put(_ glyph: Character, attributes a: CellAttributes, pair: Int32, x: Int, y: Int) {
        Self.add(glyph, attributes: a, pair: pair, x: x, y: y)
    }

    /// Puts `glyph` at (x, y) of the window. Nonisolated, and so is the closure in it: a main-actor closure is
    /// checked to run on the main actor each time it is called (320 instructions a cell, a quarter of the cell's cost).
    private nonisolated static func add(_ glyph: Character, attributes a: CellAttributes, pair: Int32, x: Int, y: Int) {
        var attrs: attr_t = 0
        if a.contains(.bold) { attrs |= cnc_a_bold() }
        if a.contains(.dim) { attrs |= cnc_a_dim() }
        if a.contains(.reverse) { attrs |= cnc_a_reverse() }
        if a.contains(.underline) { attrs |= cnc_a_underline() }
        if a.contains(.italic) { attrs |= cnc_a_italic() }
        // On the stack, not an array: this runs for every cell of a frame that changed (4,800 on a first screen).
        withUnsafeTemporaryAllocation(of: wchar_t.self, capacity: Int(CCHARW_MAX)) { scalars in
            var count = 0
            for scalar in glyph.unicodeScalars where count < scalars.count - 1 {
                scalars[count] = wchar_t(bitPattern: scalar.value)
                count += 1
            }
            if count == 0 {
                scalars[0] = 32
                count = 1
            }
            scalars[count] = 0
            var cc = cchar_t()
            _ = cnc_setcchar(&cc, scalars.baseAddress, attrs, pair)
            mvwadd_wch(cnc_stdscr(), Int32(y), Int32(x), &cc)
        }
    }

    func definePair(_ pair: Int32, foreground: Int32, background: Int32) -> Bool {
        init_extended_pair(pair, foreground, background) == OK
    }

    func resetPairs() {
        reset_color_pairs()
    }

    func refresh() {
        wnoutrefresh(cnc_stdscr())
        guard marksFrames else {
            doupdate()
            return
        }
        framesMarked += 1
        send(Array("\u{1B}]2;thumbtable-frame-\(framesMarked)-begin\u{07}".utf8))
        doupdate()
        send(Array("\u{1B}]2;thumbtable-frame-\(framesMarked)-end\u{07}".utf8))
    }

    /// For the end-to-end tests (`THUMBTABLE_TEST_FRAME_MARKS` set): each frame's bytes are written between two
    /// window titles, `thumbtable-frame-N-begin` and `-end`, so that a test reading the screen from tmux can tell a
    /// frame still being written from a whole one (tmux takes the titles in the order of the bytes).
    private let marksFrames = getenv("THUMBTABLE_TEST_FRAME_MARKS") != nil
    private var framesMarked = 0

    // MARK: Input

    /// Everything curses has read: keys the quit watch held back first (in the order typed), then the terminal's.
    func readAll() -> [CursesRead] {
        var reads: [CursesRead] = []
        var ch: wint_t = 0
        cnc_return_held_input()
        while true {
            let status = wget_wch(cnc_stdscr(), &ch)
            if status == ERR { break }
            guard status == KEY_CODE_YES else {
                reads.append(.character(UInt32(ch)))
                continue
            }
            let code = Int32(ch)
            if code == cnc_key_mouse() {
                if let report = mouse() { reads.append(.mouse(report)) }
            } else if code == cnc_key_resize() {
                reads.append(.resize)
            } else {
                reads.append(.key(Self.key(forCode: code)))
            }
        }
        return reads
    }

    private func mouse() -> MouseReport? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        let state = event.bstate
        var buttons: MouseReport.Buttons = []
        if state & cnc_button4_pressed() != 0 { buttons.insert(.wheelUp) }
        if state & cnc_button5_pressed() != 0 { buttons.insert(.wheelDown) }
        if state & cnc_button1_pressed() != 0 { buttons.insert(.press) }
        if state & cnc_button1_clicked() != 0 { buttons.insert(.click) }
        if state & cnc_button1_double_clicked() != 0 { buttons.insert(.doubleClick) }
        return MouseReport(buttons: buttons, column: Int(event.x), row: Int(event.y))
    }

    /// The key of a code curses decoded from an escape sequence.
    static func key(forCode code: Int32) -> Key {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .tab
        case KEY_F0 + 1...KEY_F0 + 24: return .function(Int(code - KEY_F0))
        default: return .unknown(code)
        }
    }
}

/// What the terminal code does to the whole process, through CNcursesw's shims: signals routed to a pipe, the quit
/// watch, the emergency restore, stopping for Ctrl-Z; and terminfo read before curses starts.
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
