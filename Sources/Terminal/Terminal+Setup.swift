import Cells
import Graphics
#if canImport(Glibc)
import Glibc
#endif

/// What is checked before curses takes the terminal: the terminfo entry, and the window's size.
extension Terminal {
    /// The cell size from `fd`'s window size (TIOCGWINSZ's pixel fields; stdout's by default); nil when it is no
    /// terminal or the terminal leaves the fields 0.
    public nonisolated static func windowCellPixels(of fd: Int32 = STDOUT_FILENO) -> CellPixelSize? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
        return CellPixelSize(areaWidth: Int(size.ws_xpixel), areaHeight: Int(size.ws_ypixel),
                             columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    /// `fd`'s window size in cells (TIOCGWINSZ; stdout's by default); nil when it is no terminal or the size is 0.
    public nonisolated static func windowCells(of fd: Int32 = STDOUT_FILENO) -> CellSize? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return CellSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    /// The terminal type as a message can show it: TERM with its control characters made visible.
    nonisolated static var termName: String {
        getenv("TERM").map { TerminalText.visible(String(cString: $0)) } ?? "(unset)"
    }

    /// The terminfo entry TERM names, or the one `TerminfoFallback` runs on in its place when terminfo lacks it (with
    /// a note saying so); refuses a terminal that cannot show a full screen before curses takes it, with what to do
    /// instead.
    static func terminfoEntry(for term: String) throws(SetupError) -> (name: String, note: String?) {
        let status = CursesProcess.checkTerminal(term)
        if status == 2, let fallback = TerminfoFallback.entry(for: term), CursesProcess.checkTerminal(fallback) == 0 {
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
}
