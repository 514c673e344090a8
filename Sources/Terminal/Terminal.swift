import Cells
import Dispatch
import Graphics
#if canImport(Glibc)
import Glibc
#endif

/// The terminal the table is drawn on: takes it over (curses' modes, the alternate screen, the mouse, colours),
/// draws frames, delivers keys, mouse actions, resizes and signals as events (`Terminal+Events`), suspends for
/// Ctrl-Z, and gives it back as it was.
///
/// Its parts: `TerminalDevice` (which terminal: the standard streams or `/dev/tty`), `CursesScreen` (curses on it),
/// `ScreenWriter` with `ColorPairs` (frames as changed cells), `InputDecoder` (what curses read, as events), and
/// `CursesProcess` (signals, the quit watch, the emergency restore).
///
/// All of it runs on the main actor.
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

    public internal(set) var size: Size
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
    public internal(set) var cellPixels: CellPixelSize?
    /// The terminal drawn on and read from: stdin and stdout, or `/dev/tty` when either is not a terminal.
    public let device: TerminalDevice

    let curses: CursesScreen
    private let writer: ScreenWriter
    var decoder: InputDecoder
    var inputSource: DispatchSourceRead?
    var resizeSource: DispatchSourceSignal?
    var signalSource: DispatchSourceRead?
    /// The read end of the pipe the signal handlers write each signal's number to (-1 if it could not be made).
    let signalPipe: Int32
    var isOpen = true
    private var isSuspended = false

    /// Called with each kitty graphics answer read from the input (an image the terminal rejected).
    public var onGraphicsReply: (@MainActor (KittyResponse) -> Void)?

    /// Takes over the terminal: alternate screen, raw keys, mouse, colours.
    ///
    /// Ctrl-C arrives as a key (raw mode), so quitting is the app's decision and the terminal is always restored.
    /// - Parameters:
    ///   - choice: which terminal: by default stdin and stdout when both are terminals, else `/dev/tty`
    ///     (`TerminalDevice`), so a command whose stdout goes to a pipe or a file still shows its screen.
    ///   - request: the colours to draw with (see `ColorSetup` for how the terminfo entry is chosen).
    ///   - graphics: the image protocol asked for; detection runs here, before curses takes the screen.
    public init(on choice: TerminalDevice.Choice = .automatic, colors request: ColorRequest = .terminal,
                graphics: GraphicsRequest = .text) throws(SetupError) {
        // The characters' locale only (what ncursesw and the width of each character go by): LC_ALL loaded 12
        // locale files at every start, and the others would turn the system's error texts in our English messages
        // into the user's language.
        setlocale(LC_CTYPE, "")
        let codeset = String(cString: nl_langinfo(Int32(CODESET)))
        unicode = codeset.uppercased().filter { $0 != "-" } == "UTF8"
        TerminalText.unicodeAvailable = unicode

        let device = try TerminalDevice.open(choice)
        self.device = device
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        let own = try Terminal.terminfoEntry(for: term)
        entryNote = own.note
        self.graphics = GraphicsProbe.run(graphics, on: device)
        cellPixels = self.graphics.cellPixels
        decoder = InputDecoder(filteringReplies: graphics != .text)
        // Signals become events: ncurses installs its own SIGWINCH handler only if the disposition is the default,
        // and a dispatch signal source needs the signal ignored.
        signal(SIGWINCH, SIG_IGN)
        let colorTerm = getenv("COLORTERM").map { String(cString: $0) }
        let colors = ColorSetup.choose(request, term: own.name, colorTerm: colorTerm,
                                       insideTmux: getenv("TMUX").map { $0.pointee != 0 } ?? false,
                                       probe: Terminal.probe)
        entry = colors.entry
        colorNote = colors.note
        CursesProcess.saveEmergencyRestore(of: device)
        // Our handlers go in before newterm: ncurses leaves alone a SIGTSTP that is not at its default. Otherwise it
        // installs its own, and every doupdate() sets SIGTSTP to SIG_IGN while it writes: a `kill -TSTP` landing
        // then was dropped by the kernel, and the program went on running.
        signalPipe = CursesProcess.routeSignals(Self.endingSignals + [SIGTSTP, SIGCONT], watchingInput: device.input)
        guard let curses = CursesScreen(entry: colors.entry, device: device) else {
            throw SetupError(description: "cannot open the terminal (TERM=\(Terminal.termName), terminfo entry "
                             + "\(TerminalText.visible(colors.entry))); try TERM=xterm-256color")
        }
        self.curses = curses
        CursesProcess.setTerminalActive(true)
        curses.takeKeysAndMouse()

        // No colour asked (NO_COLOR, --color none): curses' colours are never started, so no pair is ever made.
        if colors.depth > 0 && curses.startColors() {
            colorCount = colors.entryIsDirect ? colors.depth : min(colors.depth, curses.colors)
        } else {
            colorCount = 0
        }
        writer = ScreenWriter(surface: curses, pairs: ColorPairs(colorCount: colorCount,
                                                                 entryIsDirect: colors.entryIsDirect,
                                                                 indexedBelow: colors.indexedBelow,
                                                                 limit: colorCount > 0 ? curses.pairLimit : 0))
        size = curses.size
    }

    isolated deinit {
        restore()
    }

    /// Whether q quits where the user is now, for the quit watch: it takes a q the loop left unread for half a
    /// second as a request to quit, but not in a pane (where q goes back) or the filter (where q is typed).
    public var qQuits = true {
        didSet { CursesProcess.setQQuits(qQuits) }
    }

    /// Gives the terminal back as it was: leaves the alternate screen, shows the cursor, ends raw mode.
    /// Safe to call more than once.
    public func restore() {
        guard isOpen else { return }
        isOpen = false
        CursesProcess.quitWatchDone()
        inputSource?.cancel()
        resizeSource?.cancel()
        signalSource?.cancel()
        curses.stopMouse()
        if !isSuspended { curses.end() }
        CursesProcess.setTerminalActive(false)
        curses.delete()
    }

    // MARK: Suspending (Ctrl-Z)

    /// Gives the terminal back to the shell, stops the process, and takes the terminal again once the process is
    /// continued (`fg`), with the whole screen to be drawn anew at its possibly new size.
    public func suspendProcess() {
        guard isOpen, !isSuspended else { return }
        isSuspended = true
        // endwin turns mouse reports off and leaves the alternate screen; the next doupdate undoes both.
        curses.end()
        CursesProcess.setTerminalActive(false)
        CursesProcess.stop()
        resumeScreen()
    }

    /// Takes the terminal again after the process was stopped and continued, by Ctrl-Z or by a signal from outside
    /// (SIGSTOP, SIGCONT): curses' modes, the alternate screen and the mouse come back; the next draw repaints all.
    public func resumeScreen() {
        guard isOpen else { return }
        if isSuspended {
            // doupdate after endwin sets curses' modes again: raw keys, mouse, alternate screen.
            isSuspended = false
            CursesProcess.setTerminalActive(true)
        } else {
            // Stopped from outside (SIGSTOP) with the screen taken: the shell may have reset the modes meanwhile.
            curses.resetModes()
        }
        // Another program may have drawn over the screen, and the window may have changed size.
        updateSize()
        curses.update()
    }

    // MARK: Drawing

    /// Writes the frame: only the cells that differ from what is on screen, then one refresh.
    public func draw(_ frame: CellBuffer) {
        guard isOpen else { return }
        writer.draw(frame, size: size)
    }

    /// Writes `bytes` to the terminal as they are, after what curses has drawn so far: for sequences curses knows
    /// nothing of (images, the clipboard). The caller makes sure they hold no untrusted control characters, and
    /// that they leave the screen as curses believes it is (or calls `invalidate()`).
    public func send(_ bytes: [UInt8]) {
        guard isOpen, !isSuspended, !bytes.isEmpty else { return }
        curses.send(bytes)
    }

    /// Makes the next draw rewrite every cell of `lines` (clipped to the screen), changed or not: what a picture in
    /// pixels (sixel, iTerm2) drew there is erased before anything else is drawn there.
    public func repaint(lines: Range<Int>) {
        guard isOpen else { return }
        curses.repaint(lines: lines.clamped(to: 0..<size.rows))
    }

    /// Forgets what is on screen, so the next draw repaints every cell (after a resize or a stray write).
    public func invalidate() {
        writer.forget()
        curses.repaintAll()
    }

    /// What terminfo says of an entry's colours; nil when it has no such entry. Call it before curses starts.
    public static func probe(_ name: String) -> ColorSetup.EntryColors? {
        CursesProcess.probe(name)
    }
}
