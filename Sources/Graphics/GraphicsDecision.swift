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
            capabilities = GraphicsCapabilities(graphics: forced,
                                                kittyPlacement: forced == .kitty ? .placeholders : nil)
        case .auto:
            // Answers cut off before DA1 (the terminal stopped answering for a budget): what came may be half the
            // story (the placeholder answer still on its way), so none of it is trusted. Not inside tmux, which
            // keeps the outer terminal's DA1 to itself.
            if replies.hasAnswers && replies.primaryAttributes == nil && !environment.insideTmux {
                return .text(note: "Pictures as text: the terminal stopped answering detection's questions "
                             + "before the end")
            }
            guard let detected = detect(replies, environment) else { return .text(note: unansweredNote(replies)) }
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
        if cellPixels == nil, let told = replies.toldCellPixels {
            return .text(note: "Pictures as text: the terminal's cell size, \(told.width)x\(told.height) px, "
                         + "is not one a screen can have")
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
        if capabilities.graphics == .kitty && capabilities.kittyPlacement == .direct && environment.insideTmux {
            capabilities.note = "Thumbnails as text: inside tmux kitty images need Unicode placeholders, "
                + "which this terminal lacks"
        }
        return capabilities
    }

    /// The protocol the replies and the terminal's identity support, or nil for none.
    static func detect(_ replies: TerminalReplies, _ environment: TerminalEnvironment) -> GraphicsCapabilities? {
        let version = replies.version?.lowercased() ?? ""
        let program = environment.termProgram.lowercased()
        let partialKitty = version.contains("wezterm") || program == "wezterm" || version.contains("konsole")
        if replies.kittyAnswersOK {
            return GraphicsCapabilities(graphics: .kitty, kittyPlacement: kittyPlacement(replies, partialKitty))
        }
        if version.contains("iterm2") || program == "iterm.app" {
            // iTerm2 lists sixel too, but its own images keep every colour.
            return GraphicsCapabilities(graphics: .iterm2)
        }
        if replies.listsSixel { return GraphicsCapabilities(graphics: .sixel) }
        if partialKitty { return GraphicsCapabilities(graphics: .iterm2) }
        return nil
    }

    /// How a kitty terminal places images: by asking (the query with the placeholder key answered OK), the version
    /// the second witness. WezTerm and Konsole answer the key without drawing placeholders, and a kitty older than
    /// 0.28 that answered it would be lying about its version or its key: either way, direct placements.
    static func kittyPlacement(_ replies: TerminalReplies, _ partialKitty: Bool) -> KittyPlacement {
        guard replies.kittyPlaceholdersAnswerOK, !partialKitty else { return .direct }
        let version = replies.version?.lowercased() ?? ""
        if let kitty = kittyVersion(version), kitty.lexicographicallyPrecedes(placeholdersSince) { return .direct }
        return .placeholders
    }

    /// Why no protocol was found, when the answers say more than "no pixels": the terminal rejected kitty's test
    /// image. Nil for a terminal that answered nothing, or in full without pixels: most, which need no note.
    static func unansweredNote(_ replies: TerminalReplies) -> String? {
        guard let error = replies.kittyQuery, error != "OK" else { return nil }
        return "Pictures as text: the terminal rejected kitty's test image (\(error.prefix(60)))"
    }

    /// The version numbers in an XTVERSION answer like `kitty(0.35.2)`; nil when it is not kitty's.
    static func kittyVersion(_ version: String) -> [Int]? {
        guard version.hasPrefix("kitty("), version.hasSuffix(")") else { return nil }
        let numbers = version.dropFirst(6).dropLast().split(separator: ".").map { Int($0) }
        guard !numbers.isEmpty, numbers.allSatisfy({ $0 != nil }) else { return nil }
        return numbers.map { $0! }
    }
}
