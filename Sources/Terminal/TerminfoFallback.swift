import Cells

/// The terminfo entry to run on when terminfo has none for TERM, as on a server reached over ssh from a terminal
/// whose entry the server never installed (TERM=xterm-kitty without kitty-terminfo, TERM=tmux-256color on an older
/// system).
///
/// Only where a common entry draws the same: an `xterm-*` TERM, or a terminal that emulates xterm (kitty, alacritty,
/// foot, wezterm, ghostty), runs on xterm-256color; tmux on screen-256color, whose keys tmux has. Any other TERM has
/// no sensible stand-in and still stops with a message.
public enum TerminfoFallback {
    /// The entry to run on in place of `term`, or nil when there is none.
    public static func entry(for term: String) -> String? {
        if term.hasPrefix("xterm-") { return "xterm-256color" }
        if xtermLike.contains(where: { term == $0 || term.hasPrefix($0 + "-") }) { return "xterm-256color" }
        if term == "tmux" || term.hasPrefix("tmux-") { return "screen-256color" }
        return nil
    }

    /// Terminals whose own TERM names do not start with `xterm-` but which draw, move and read keys as xterm does.
    static let xtermLike = ["kitty", "alacritty", "foot", "wezterm", "ghostty"]

    /// What the status line says when the table runs on `entry` in place of `term`.
    public static func note(term: String, entry: String) -> String {
        "TERM=\(TerminalText.visible(term)) is not in the terminfo database: drawing as \(entry) "
            + "(install the terminal's terminfo entry for all of its features)"
    }
}
