import CNcursesw
import Cells
import Dispatch
import Graphics
#if canImport(Glibc)
import Glibc
#endif

/// The only code that calls ncursesw: start-up and teardown, colours, wide characters, input, mouse, resize,
/// and writing a frame's changed cells.
///
/// All of it runs on the main actor. Input arrives through a read source on stdin, a signal source for SIGWINCH, and
/// a read source on the pipe the signal handler writes to, all on the main queue, so an idle screen costs no CPU.
/// A thread of its own (the quit watch, in CNcursesw) ends the process should the main queue not run.
@MainActor
public final class Terminal {
    public struct Size: Sendable, Equatable {
        public var columns: Int
        public var rows: Int
        public init(columns: Int, rows: Int) {
            self.columns = columns
            self.rows = rows
        }
    }

    /// Why the terminal could not be set up.
    public struct SetupError: Error, CustomStringConvertible {
        public var description: String
    }

    public private(set) var size: Size
    /// Whether the locale is UTF-8; if not, drawing falls back to ASCII-only glyphs.
    public let unicode: Bool
    /// The colours the table is drawn with: 0 (none), 8, 16, 256, or 1 << 24 for direct colour; what was asked
    /// (`ColorRequest`), within what the terminal shows.
    public let colorCount: Int
    /// The terminfo entry curses runs on: TERM's, or a direct-colour entry for the same terminal.
    public let entry: String
    /// Why the table shows fewer colours than asked, for the status line; nil when it shows what was asked.
    public let colorNote: String?
    /// Why the table draws as another terminal than TERM says (terminfo lacks TERM's entry: `TerminfoFallback`),
    /// for the status line; nil when it runs on TERM's own.
    public let entryNote: String?
    /// What the terminal draws pictures with, found before curses took the screen (`--graphics`).
    public let graphics: GraphicsCapabilities
    /// The size of a cell in pixels: the start-up probe's, then the tty's window size (TIOCGWINSZ) after each resize
    /// when the terminal fills in its pixel fields (a font size change resizes the window in pixels).
    public private(set) var cellPixels: CellPixelSize?

    private let screen: OpaquePointer
    private var onScreen: CellBuffer?
    private var inputSource: DispatchSourceRead?
    private var resizeSource: DispatchSourceSignal?
    private var signalSource: DispatchSourceRead?
    /// The read end of the pipe the signal handlers write each signal's number to (-1 if it could not be made).
    private var signalPipe: Int32 = -1
    private var isOpen = true
    private var lastPress: (row: Int, column: Int, time: UInt64)?
    private let colors: ColorSetup
    /// Set when detection asked the terminal anything: its answers (late ones too) are kept out of the keys.
    private var replyFilter: TerminalReplyFilter?

    /// Called with each kitty graphics answer read from the input (an image the terminal rejected).
    public var onGraphicsReply: (@MainActor (KittyResponse) -> Void)?

    /// Takes over the terminal: alternate screen, raw keys, mouse, colours.
    ///
    /// Ctrl-C arrives as a key (raw mode), so quitting is the app's decision and the terminal is always restored.
    /// - Parameters:
    ///   - request: the colours to draw with (see `ColorSetup` for how the terminfo entry is chosen).
    ///   - graphics: the image protocol asked for; detection runs here, before curses takes the screen.
    public init(colors request: ColorRequest = .terminal, graphics: GraphicsRequest = .text) throws(SetupError) {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(Int32(CODESET)))
        unicode = codeset.uppercased().filter { $0 != "-" } == "UTF8"
        TerminalText.unicodeAvailable = unicode

        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw SetupError(description: "thumbtable needs a terminal: stdin and stdout must be a tty")
        }
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        let own = try Terminal.terminfoEntry(for: term)
        entryNote = own.note
        self.graphics = GraphicsProbe.run(graphics)
        cellPixels = self.graphics.cellPixels
        replyFilter = graphics == .text ? nil : TerminalReplyFilter()
        // Signals become events: ncurses installs its own SIGWINCH handler only if the disposition is the default,
        // and a dispatch signal source needs the signal ignored.
        signal(SIGWINCH, SIG_IGN)
        let colorTerm = getenv("COLORTERM").map { String(cString: $0) }
        let colors = ColorSetup.choose(request, term: own.name, colorTerm: colorTerm,
                                       insideTmux: getenv("TMUX").map { $0.pointee != 0 } ?? false,
                                       probe: Terminal.probe)
        self.colors = colors
        entry = colors.entry
        colorNote = colors.note
        Terminal.saveEmergencyRestore()
        // Our handlers go in before newterm: ncurses leaves alone a SIGTSTP that is not at its default. Otherwise it
        // installs its own, and every doupdate() sets SIGTSTP to SIG_IGN while it writes: a `kill -TSTP` landing
        // then was dropped by the kernel, and the program went on running.
        signalPipe = Self.routeSignals()
        guard let screen = cnc_newterm(colors.entry) else {
            throw SetupError(description: "cannot open the terminal (TERM=\(Terminal.termName), terminfo entry "
                             + "\(TerminalText.visible(colors.entry))); try TERM=xterm-256color")
        }
        self.screen = screen
        set_term(screen)
        cnc_set_terminal_active(1)

        raw()
        noecho()
        nonl()
        keypad(cnc_stdscr(), true)
        nodelay(cnc_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        leaveok(cnc_stdscr(), true)
        // Raw press and release reports; clicks and double clicks are told apart here, without curses waiting.
        mouseinterval(0)
        mousemask(cnc_mouse_all(), nil)

        // No colour asked (NO_COLOR, --color none): curses' colours are never started, so no pair is ever made.
        if colors.depth > 0 && has_colors() {
            start_color()
            use_default_colors()
            colorCount = colors.entryIsDirect ? colors.depth : min(colors.depth, Int(cnc_colors()))
        } else {
            colorCount = 0
        }

        size = Size(columns: Int(cnc_cols()), rows: Int(cnc_lines()))
    }

    isolated deinit {
        restore()
    }

    /// The signals whose default action ends the process (signal(7)), SIGPIPE aside: each becomes an event, so the
    /// loop restores the terminal before the process ends. Crashes and the real-time signals cannot wait for the
    /// loop; the emergency restore covers them.
    public static let endingSignals: [Int32] = [
        SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPOLL,
        SIGPWR, SIGSTKFLT,
    ]

    /// Starts delivering input, resize and signal events to `handler` on the main actor.
    public func startEvents(_ handler: @escaping @MainActor ([InputEvent]) -> Void) {
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        input.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                cnc_input_beat()
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
        startSignalEvents(handler)
    }

    /// Whether q quits where the user is now, for the quit watch: it takes a q the loop left unread for half a
    /// second as a request to quit, but not in a pane (where q goes back) or the filter (where q is typed).
    public var qQuits = true {
        didSet { cnc_set_q_quits(qQuits ? 1 : 0) }
    }

    /// Routes the ending signals, SIGTSTP and SIGCONT to a pipe (its read end is returned) and starts the quit
    /// watch. A dispatch signal source cannot be used, as libdispatch leaves SIGPROF unblocked in its threads and its
    /// handler then bounces the signal between them for ever, and the quit watch needs to see the signals too.
    private static func routeSignals() -> Int32 {
        let signals = endingSignals + [SIGTSTP, SIGCONT]
        return signals.withUnsafeBufferPointer { cnc_start_signal_events($0.baseAddress, Int32($0.count)) }
    }

    /// Delivers the signals routed at start-up (and any that came meanwhile) to `handler`.
    private func startSignalEvents(_ handler: @escaping @MainActor ([InputEvent]) -> Void) {
        let fd = signalPipe
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
                    cnc_input_beat()
                    events += self.readEvents()
                }
                if !events.isEmpty { handler(events) }
            }
        }
        source.resume()
        signalSource = source
    }

    /// Gives the terminal back as it was: leaves the alternate screen, shows the cursor, ends raw mode.
    /// Safe to call more than once.
    public func restore() {
        guard isOpen else { return }
        isOpen = false
        cnc_quit_watch_done()
        inputSource?.cancel()
        resizeSource?.cancel()
        signalSource?.cancel()
        mousemask(0, nil)
        if !isSuspended { endwin() }
        cnc_set_terminal_active(0)
        delscreen(screen)
    }

    // MARK: Suspending (Ctrl-Z)

    private var isSuspended = false

    /// Gives the terminal back to the shell, stops the process, and takes the terminal again once the process is
    /// continued (`fg`), with the whole screen to be drawn anew at its possibly new size.
    public func suspendProcess() {
        guard isOpen, !isSuspended else { return }
        isSuspended = true
        // endwin turns mouse reports off and leaves the alternate screen; the next doupdate undoes both.
        endwin()
        cnc_set_terminal_active(0)
        cnc_stop_process()
        resumeScreen()
    }

    /// Takes the terminal again after the process was stopped and continued, by Ctrl-Z or by a signal from outside
    /// (SIGSTOP, SIGCONT): curses' modes, the alternate screen and the mouse come back; the next draw repaints all.
    public func resumeScreen() {
        guard isOpen else { return }
        if isSuspended {
            // doupdate after endwin sets curses' modes again: raw keys, mouse, alternate screen.
            isSuspended = false
            cnc_set_terminal_active(1)
        } else {
            // Stopped from outside (SIGSTOP) with the screen taken: the shell may have reset the modes meanwhile.
            reset_prog_mode()
        }
        // Another program may have drawn over the screen, and the window may have changed size.
        updateSize()
        doupdate()
    }

    // MARK: Drawing

    /// Writes the frame: only the cells that differ from what is on screen, then one refresh.
    public func draw(_ frame: CellBuffer) {
        guard isOpen else { return }
        let window = cnc_stdscr()
        let previous = onScreen.flatMap { $0.width == frame.width && $0.height == frame.height ? $0 : nil }
        if previous == nil { werase(window) }
        if !write(frame, over: previous) {
            // The colour-pair table is full (see `colorPair`): every pair is forgotten, numbering starts again at 1
            // and every cell is written again. reset_color_pairs also has curses repaint the whole screen, whose
            // cells carry numbers that will mean other colours. Redefining pairs one by one instead made curses
            // search its copy of the screen for each one: frames of new photos took 200-600 ms instead of 30-90.
            reset_color_pairs()
            pairCache.removeAll(keepingCapacity: true)
            nextPair = 1
            werase(window)
            overflowing = true
            _ = write(frame, over: nil)
            overflowing = false
        }
        wnoutrefresh(window)
        doupdate()
        onScreen = frame
    }

    /// Writes the cells of `frame` that differ from `previous` (all of them when nil) to curses' window; false,
    /// having stopped, when the colour-pair table ran out.
    private func write(_ frame: CellBuffer, over previous: CellBuffer?) -> Bool {
        let maxX = min(frame.width, size.columns), maxY = min(frame.height, size.rows)
        for y in 0..<maxY {
            for x in 0..<maxX {
                let cell = frame[x, y]
                if cell.isContinuation { continue }
                if let previous, previous[x, y] == cell,
                   x + 1 >= maxX || previous[x + 1, y] == frame[x + 1, y] { continue }
                // The bottom-right cell scrolls some terminals when written; curses handles it with insert mode,
                // but a wide character there cannot fit.
                guard let pair = colorPair(cell.style) else { return false }
                write(cell, pair: pair, x: x, y: y, room: maxX - x)
            }
        }
        return true
    }

    /// Writes `bytes` to the terminal as they are, after what curses has drawn so far: for sequences curses knows
    /// nothing of (images, the clipboard). The caller makes sure they hold no untrusted control characters, and
    /// that they leave the screen as curses believes it is (or calls `invalidate()`).
    public func send(_ bytes: [UInt8]) {
        guard isOpen, !isSuspended, !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { cnc_send($0.baseAddress, $0.count) }
    }

    /// Forgets what is on screen, so the next draw repaints every cell (after a resize or a stray write).
    public func invalidate() {
        onScreen = nil
        clearok(cnc_stdscr(), true)
    }

    private func write(_ cell: Cell, pair: Int32, x: Int, y: Int, room: Int) {
        var scalars = Array(cell.glyph.unicodeScalars.prefix(Int(CCHARW_MAX) - 1)).map { wchar_t(bitPattern: $0.value) }
        if cell.glyph.displayWidth > room || scalars.isEmpty { scalars = [wchar_t(32)] }
        scalars.append(0)
        var attrs: attr_t = 0
        let a = cell.style.attributes
        if a.contains(.bold) { attrs |= cnc_a_bold() }
        if a.contains(.dim) { attrs |= cnc_a_dim() }
        if a.contains(.reverse) { attrs |= cnc_a_reverse() }
        if a.contains(.underline) { attrs |= cnc_a_underline() }
        if a.contains(.italic) { attrs |= cnc_a_italic() }
        var cc = cchar_t()
        _ = scalars.withUnsafeBufferPointer { cnc_setcchar(&cc, $0.baseAddress, attrs, pair) }
        mvwadd_wch(cnc_stdscr(), Int32(y), Int32(x), &cc)
    }

    // MARK: Colours

    /// The pair number of each fg/bg combination drawn since the pair table was last reset.
    private var pairCache: [CellStyle.ColorKey: Int32] = [:]
    /// The next pair number to define.
    private var nextPair: Int32 = 1
    /// Set while a frame is drawn anew after a reset of the pair table: should that one frame have more colour
    /// combinations than the table holds (a terminal of more than 65,535 cells; 63 pairs in an 8-colour one), its
    /// last cells take the terminal's default colours rather than a recycled pair's.
    private var overflowing = false

    /// The colour pair of a style; nil when the pair table is full.
    ///
    /// Pair numbers are handed out here, 1 up to COLOR_PAIRS - 1 (65,535 in the 256-colour and direct entries, 63 in
    /// xterm's 8-colour one), not by `alloc_pair`: with a direct entry ncurses sizes its table for 2 x 2^24 colours,
    /// so `alloc_pair` hands out numbers past COLOR_PAIRS, outside the documented range, keeping every pair ever
    /// drawn (after `reset_color_pairs` its cells drew in the default colours); and where it does recycle the
    /// least recently used pair, it would redefine a pair that cells written earlier in the same frame use. Once
    /// the numbers run out, `draw` starts them again and writes the whole frame anew. A frame needs at most one pair
    /// per cell, a 200x60 screen at most 12,000, so it always fits: a photo filling 150x50 cells of a 200x60
    /// screen used 8,380 in 24-bit colour and 1,388 in 256, so the numbers start again after about eight screens of
    /// new photos, with one frame that repaints the whole screen (60-110 ms instead of 30-90, measured).
    private func colorPair(_ style: CellStyle) -> Int32? {
        guard colorCount > 0 else { return 0 }
        let key = style.colorKey
        if key.foreground == .default && key.background == .default { return 0 }
        if let pair = pairCache[key] { return pair }
        guard nextPair < cnc_color_pairs(),
              init_extended_pair(nextPair, colorNumber(key.foreground), colorNumber(key.background)) == OK
        else { return overflowing ? 0 : nil }
        pairCache[key] = nextPair
        nextPair += 1
        return pairCache[key]
    }

    /// A cell colour as a curses colour number: reduced to the drawing depth, then as the entry takes it (an RGB
    /// value in a direct-colour entry, except the palette indexes it sends as such).
    private func colorNumber(_ color: CellColor) -> Int32 {
        let index: UInt8
        switch color {
        case .default:
            return -1
        case .palette(let n):
            index = Int(n) < colorCount ? n : XtermPalette.reduce(paletteIndex: n, to: colorCount)
        case .rgb(let r, let g, let b):
            if colorCount >= ColorSetup.direct {
                return XtermPalette.directColorNumber(r: r, g: g, b: b, indexedBelow: colors.indexedBelow)
            }
            index = XtermPalette.nearest(r: r, g: g, b: b, colors: colorCount)
        }
        guard colors.entryIsDirect, Int(index) >= colors.indexedBelow else { return Int32(index) }
        let c = XtermPalette.rgb(index)
        return XtermPalette.directColorNumber(r: c.r, g: c.g, b: c.b, indexedBelow: colors.indexedBelow)
    }

    /// What terminfo says of an entry's colours; nil when it has no such entry. Call it before curses starts.
    public static func probe(_ name: String) -> ColorSetup.EntryColors? {
        var colors: Int32 = 0, indexed: Int32 = 0
        guard cnc_probe_entry(name, &colors, &indexed) == 0 else { return nil }
        return ColorSetup.EntryColors(colors: Int(colors), indexedBelow: Int(indexed))
    }

    // MARK: Input

    private func readEvents() -> [InputEvent] {
        var events: [InputEvent] = []
        var ch: wint_t = 0
        // Keys the quit watch read while the loop was busy come first, in the order typed.
        cnc_return_held_input()
        while true {
            let status = wget_wch(cnc_stdscr(), &ch)
            if status == ERR { break }
            if status == KEY_CODE_YES {
                let code = Int32(ch)
                if code == cnc_key_mouse() {
                    if let event = readMouse() { events.append(.mouse(event)) }
                } else if code == cnc_key_resize() {
                    // resizeterm queued this; the size is already current (calling it again would queue another).
                    size = Size(columns: Int(cnc_cols()), rows: Int(cnc_lines()))
                    if events.last != .resize { events.append(.resize) }
                } else {
                    events.append(.key(Terminal.key(forCode: code)))
                }
            } else if replyFilter != nil {
                switch replyFilter!.feed(UInt32(ch)) {
                case .characters(let characters):
                    events += characters.map { .key(Terminal.key(forCharacter: $0)) }
                case .reply(let response):
                    onGraphicsReply?(response)
                case .swallowed:
                    break
                }
            } else {
                events.append(.key(Terminal.key(forCharacter: UInt32(ch))))
            }
        }
        if let escape = replyFilter?.endOfInput() { events.append(.key(Terminal.key(forCharacter: escape))) }
        return events
    }

    private func readMouse() -> MouseEvent? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        let state = event.bstate
        let row = Int(event.y), column = Int(event.x)
        if state & cnc_button4_pressed() != 0 { return MouseEvent(.wheelUp, column: column, row: row) }
        if state & cnc_button5_pressed() != 0 { return MouseEvent(.wheelDown, column: column, row: row) }
        if state & (cnc_button1_pressed() | cnc_button1_clicked()) != 0 {
            let now = DispatchTime.now().uptimeNanoseconds
            defer { lastPress = (row, column, now) }
            if let last = lastPress, last.row == row, now - last.time < 400_000_000 {
                lastPress = nil
                return MouseEvent(.doubleClick, column: column, row: row)
            }
            return MouseEvent(.click, column: column, row: row)
        }
        if state & cnc_button1_double_clicked() != 0 { return MouseEvent(.doubleClick, column: column, row: row) }
        return nil
    }

    /// The cell size from stdout's window size (TIOCGWINSZ's pixel fields); nil when stdout is no terminal or the
    /// terminal leaves the fields 0.
    public nonisolated static func windowCellPixels() -> CellPixelSize? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
        return CellPixelSize(areaWidth: Int(size.ws_xpixel), areaHeight: Int(size.ws_ypixel),
                             columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    /// Stdout's window size in cells (TIOCGWINSZ); nil when stdout is no terminal or the size is 0.
    public nonisolated static func windowCells() -> CellSize? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return CellSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    private func updateSize() {
        var rows: Int32 = 0, cols: Int32 = 0
        if cnc_window_size(STDOUT_FILENO, &rows, &cols) == 0 {
            resizeterm(rows, cols)
        }
        size = Size(columns: Int(cnc_cols()), rows: Int(cnc_lines()))
        if let cells = Self.windowCellPixels() { cellPixels = cells }
        invalidate()
    }

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

    static func key(forCharacter value: UInt32) -> Key {
        switch value {
        case 13, 10: return .enter
        case 27: return .escape
        case 9: return .tab
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(value + 96))))
        default:
            guard let scalar = Unicode.Scalar(value) else { return .unknown(Int32(bitPattern: value)) }
            return .character(Character(scalar))
        }
    }

    /// The terminal type as a message can show it: TERM with its control characters made visible.
    static var termName: String {
        getenv("TERM").map { TerminalText.visible(String(cString: $0)) } ?? "(unset)"
    }

    /// The terminfo entry TERM names, or the one `TerminfoFallback` runs on in its place when terminfo lacks it (with
    /// a note saying so); refuses a terminal that cannot show a full screen before curses takes it, with what to do
    /// instead.
    private static func terminfoEntry(for term: String) throws(SetupError) -> (name: String, note: String?) {
        let status = cnc_check_terminal(term)
        if status == 2, let fallback = TerminfoFallback.entry(for: term), cnc_check_terminal(fallback) == 0 {
            return (fallback, TerminfoFallback.note(term: term, entry: fallback))
        }
        try checkCapabilities(status)
        return (term, nil)
    }

    /// Refuses a terminal that cannot show a full screen (`status`: `cnc_check_terminal`'s), with what to do instead.
    private static func checkCapabilities(_ status: Int32) throws(SetupError) {
        switch status {
        case 0:
            return
        case 1:
            throw SetupError(description: "TERM is not set, so thumbtable does not know how to draw on this terminal; "
                             + "set it to the terminal's type (e.g. TERM=xterm-256color)")
        case 2:
            throw SetupError(description: "the terminal type TERM=\(termName) is not in the terminfo database; "
                             + "set TERM to the terminal's type (e.g. TERM=xterm-256color) or install its "
                             + "terminfo entry (the ncurses-term package has most)")
        default:
            throw SetupError(description: "the terminal type TERM=\(termName) cannot move the cursor, and thumbtable "
                             + "draws a full screen; run it in a terminal emulator with TERM set to its type "
                             + "(e.g. TERM=xterm-256color)")
        }
    }

    // The terminal's modes before curses, and the bytes that undo what curses does (colours, mouse reports,
    // hidden cursor, alternate screen), saved for the fatal-signal handler.
    private static func saveEmergencyRestore() {
        let reset = "\u{1B}[0m\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1006l\u{1B}[?25h\u{1B}[?1049l\r\n"
        let bytes = Array(reset.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cnc_save_terminal_state($0.baseAddress, $0.count) }
        }
        cnc_install_fatal_signal_handlers()
    }
}

extension CellStyle {
    /// The colours of a style, without its attributes: what a curses colour pair is made of.
    struct ColorKey: Hashable {
        var foreground: CellColor
        var background: CellColor
    }

    var colorKey: ColorKey { ColorKey(foreground: foreground, background: background) }
}

