import Cells

/// What the environment says of the terminal, beside its replies: read before detection, passed in so the decision
/// stays a pure function.
public struct TerminalEnvironment: Sendable, Equatable {
    public var term: String
    /// TERM_PROGRAM (`ghostty`, `WezTerm`, `iTerm.app`...), empty when unset.
    public var termProgram: String
    /// Whether KITTY_WINDOW_ID is set: the program runs in a kitty window (or was started from one).
    public var kittyWindow: Bool
    public var insideTmux: Bool
    /// Inside tmux: whether `allow-passthrough` is on.
    public var tmuxPassthrough: Bool
    /// Inside tmux: whether the attached client's terminal has 24-bit colour (the `RGB` feature), which a kitty
    /// image id carried as a colour needs.
    public var tmuxRGB: Bool
    /// The cell size from the tty's window size (TIOCGWINSZ pixel fields), nil when the terminal leaves them 0.
    public var windowCellPixels: CellPixelSize?
    /// The window's size in cells (TIOCGWINSZ), nil when unknown: what the terminal's pixel sizes are checked by.
    public var windowCells: CellSize?

    public init(term: String = "", termProgram: String = "", kittyWindow: Bool = false, insideTmux: Bool = false,
                tmuxPassthrough: Bool = false, tmuxRGB: Bool = false, windowCellPixels: CellPixelSize? = nil,
                windowCells: CellSize? = nil) {
        self.windowCells = windowCells
        self.term = term
        self.termProgram = termProgram
        self.kittyWindow = kittyWindow
        self.insideTmux = insideTmux
        self.tmuxPassthrough = tmuxPassthrough
        self.tmuxRGB = tmuxRGB
        self.windowCellPixels = windowCellPixels
    }
}

/// Decides what the terminal draws from its replies and the environment: never guessing a protocol no reply or
/// identity supports, and saying why pixels are not shown.
public enum GraphicsDecision {
    /// The first kitty version with Unicode placeholders.
    public static let placeholdersSince = [0, 28, 0]

    /// The capabilities for `request`, given the terminal's replies to `TerminalQueries.bytes(for:insideTmux:)`
    /// (nil when nothing was asked) and the environment.
    public static func decide(_ request: GraphicsRequest, replies: TerminalReplies?,
                              environment: TerminalEnvironment) -> GraphicsCapabilities {
        guard request != .text else { return .text() }
        if environment.insideTmux && !environment.tmuxPassthrough {
            // Said only when pixels were asked for, or the environment names a terminal that draws them: most tmux
            // users' terminals draw none, and the note would take the status line from them on every start.
            let hinted = environment.kittyWindow
                || ["ghostty", "wezterm", "iterm.app"].contains(environment.termProgram.lowercased())
            guard request != .auto || hinted else { return .text() }
            return .text(note: "Pictures as text: tmux passes no images (set -g allow-passthrough on)")
        }
        let replies = replies ?? TerminalReplies()
        // A cell size that would make the window larger than a screen is not believed: as if unanswered.
        let window = environment.windowCells
        let answered = replies.cellPixels.flatMap { cells in window.map(cells.fitsOnAScreen) ?? true ? cells : nil }
        let cellPixels = answered ?? environment.windowCellPixels
        var capabilities: GraphicsCapabilities
        switch request {
        case .forced(let forced):
            capabilities = GraphicsCapabilities(graphics: forced, kittyPlaceholders: forced == .kitty)
        case .auto:
            guard let detected = detect(replies, environment) else { return .text() }
            capabilities = detected
        }
        capabilities.cellPixels = cellPixels
        capabilities.tmuxPassthrough = environment.insideTmux
        if replies.sixelColorRegisters != nil || replies.sixelMaxWidth != nil {
            var geometry = SixelGeometry(colorRegisters: replies.sixelColorRegisters,
                                         maxWidth: replies.sixelMaxWidth, maxHeight: replies.sixelMaxHeight)
            // A largest image beyond the screen's pixels is not believed either: as if unanswered.
            let screenWidth = window.flatMap { window in cellPixels.map { window.columns * $0.width } }
            let screenHeight = window.flatMap { window in cellPixels.map { window.rows * $0.height } }
            if (geometry.maxWidth ?? 0) > min(screenWidth ?? .max, CellPixelSize.maxScreenSide)
                || (geometry.maxHeight ?? 0) > min(screenHeight ?? .max, CellPixelSize.maxScreenSide) {
                geometry.maxWidth = nil
                geometry.maxHeight = nil
            }
            capabilities.sixel = geometry
        }
        if cellPixels == nil, let told = replies.cellPixels {
            return .text(note: "Pictures as text: the terminal's cell size, \(told), is more than a screen holds")
        }
        if cellPixels == nil {
            return .text(note: "Pictures as text: the terminal did not tell its cell size in pixels")
        }
        if environment.insideTmux && capabilities.graphics != .kitty {
            return .text(note: "Pictures as text: inside tmux only kitty images with placeholders are shown")
        }
        if environment.insideTmux && !environment.tmuxRGB {
            return .text(note: "Pictures as text: tmux's client lacks 24-bit colour "
                         + "(set -as terminal-features ',*:RGB')")
        }
        if capabilities.graphics == .kitty && !capabilities.kittyPlaceholders {
            capabilities.note = "Thumbnails as text: this terminal's kitty graphics have no Unicode placeholders"
        }
        return capabilities
    }

    /// The protocol the replies and the terminal's identity support, or nil for none.
    static func detect(_ replies: TerminalReplies, _ environment: TerminalEnvironment) -> GraphicsCapabilities? {
        let version = replies.version?.lowercased() ?? ""
        let program = environment.termProgram.lowercased()
        let ghostty = version.contains("ghostty") || program == "ghostty" || environment.term == "xterm-ghostty"
        let partialKitty = version.contains("wezterm") || program == "wezterm" || version.contains("konsole")
        if replies.kittyAnswersOK {
            let placeholders: Bool
            if partialKitty {
                placeholders = false
            } else if ghostty {
                placeholders = true
            } else if let kitty = kittyVersion(version) {
                placeholders = kitty.lexicographicallyPrecedes(placeholdersSince) == false
            } else {
                // No version answer: kitty's own environment is the only other proof.
                placeholders = replies.version == nil && (environment.term == "xterm-kitty" || environment.kittyWindow)
            }
            return GraphicsCapabilities(graphics: .kitty, kittyPlaceholders: placeholders)
        }
        if replies.listsSixel { return GraphicsCapabilities(graphics: .sixel) }
        if version.contains("iterm2") || program == "iterm.app" || partialKitty {
            return GraphicsCapabilities(graphics: .iterm2)
        }
        return nil
    }

    /// The version numbers in an XTVERSION answer like `kitty(0.35.2)`; nil when it is not kitty's.
    static func kittyVersion(_ version: String) -> [Int]? {
        guard version.hasPrefix("kitty("), version.hasSuffix(")") else { return nil }
        let numbers = version.dropFirst(6).dropLast().split(separator: ".").map { Int($0) }
        guard !numbers.isEmpty, numbers.allSatisfy({ $0 != nil }) else { return nil }
        return numbers.map { $0! }
    }
}
