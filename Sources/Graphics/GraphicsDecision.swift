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

    public init(term: String = "", termProgram: String = "", kittyWindow: Bool = false, insideTmux: Bool = false,
                tmuxPassthrough: Bool = false, tmuxRGB: Bool = false, windowCellPixels: CellPixelSize? = nil) {
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
            return .text(note: "Pictures as text: tmux passes no images (set -g allow-passthrough on)")
        }
        let replies = replies ?? TerminalReplies()
        let cellPixels = replies.cellPixels ?? environment.windowCellPixels
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
            capabilities.sixel = SixelGeometry(colorRegisters: replies.sixelColorRegisters,
                                               maxWidth: replies.sixelMaxWidth, maxHeight: replies.sixelMaxHeight)
        }
        if cellPixels == nil {
            return .text(note: "Pictures as text: the terminal did not tell its cell size in pixels")
        }
        if environment.insideTmux && capabilities.graphics != .kitty {
            return .text(note: "Pictures as text: inside tmux only kitty images with placeholders are shown")
        }
        if environment.insideTmux && !environment.tmuxRGB {
            return .text(note: "Pictures as text: tmux's client lacks 24-bit colour (set -as terminal-features ',*:RGB')")
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
