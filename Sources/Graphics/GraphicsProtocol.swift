/// How pictures reach the screen: as text art, or as real pixels through one of the terminal image protocols.
public enum GraphicsProtocol: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Text art in ordinary cells: every terminal, and the fallback.
    case text
    /// The kitty graphics protocol (kitty, Ghostty; WezTerm and Konsole in part).
    case kitty
    /// DEC sixel graphics (xterm -ti vt340, foot, mlterm, WezTerm...).
    case sixel
    /// iTerm2's inline images (`OSC 1337 ; File=`): iTerm2, WezTerm, mintty.
    case iterm2

    public var description: String { rawValue }
}

/// What `--graphics` asks for: detect the terminal's protocol, or use the one named (the cell size is still asked).
public enum GraphicsRequest: Sendable, Equatable {
    case auto
    case forced(GraphicsProtocol)

    /// `text`: exactly the program without graphics; nothing is asked of the terminal.
    public static let text = GraphicsRequest.forced(.text)

    /// The request a `--graphics` value names: auto, kitty, sixel, iterm2 or text; nil for anything else.
    public init?(argument: String) {
        if argument.lowercased() == "auto" {
            self = .auto
        } else if let forced = GraphicsProtocol(rawValue: argument.lowercased()) {
            self = .forced(forced)
        } else {
            return nil
        }
    }
}
