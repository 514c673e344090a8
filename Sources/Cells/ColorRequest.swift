/// The colours the table is asked to draw with: what the terminal shows, or a depth named by `--color` or `NO_COLOR`.
public enum ColorRequest: Sendable, Equatable {
    /// What the terminal shows: 24-bit colour when its terminfo entry has direct colour or `COLORTERM` is
    /// `truecolor` or `24bit`, else as many colours as its entry has.
    case terminal
    /// No colour at all: attributes only (`--color none`, `NO_COLOR`).
    case none
    /// At most this many palette colours (16 or 256).
    case palette(Int)
    /// 24-bit colour, through a direct-colour terminfo entry (`--color truecolor`).
    case direct
}
