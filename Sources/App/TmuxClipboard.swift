import Basics
import FoundationEssentials

/// What tmux does with a program's OSC 52 (`y`), from its settings, so the status line says what happened instead
/// of "copied" when tmux dropped it: tmux's default `set-clipboard external` ignores OSC 52 from programs.
public struct TmuxClipboard: Sendable, Equatable {
    /// `set-clipboard`: `on` makes a paste buffer and passes the copy to the terminal outside; `external` (the
    /// default) and `off` ignore a program's.
    public var setClipboard: String
    /// `allow-passthrough` (tmux 3.3+): `on` or `all` lets the passthrough copy reach the terminal outside.
    public var allowPassthrough: String

    public init(setClipboard: String, allowPassthrough: String) {
        self.setClipboard = setClipboard
        self.allowPassthrough = allowPassthrough
    }

    /// How long tmux has to answer: it answers in milliseconds, and a hung server must not hold the key for long.
    static let budget: Duration = .milliseconds(500)

    /// The settings of the tmux server and pane the program runs in (`$TMUX_PANE`), from `tmux display`; nil when
    /// tmux cannot be asked. Read, never changed. Blocking: run it off the main actor.
    public static func ask(pane: String? = ProcessInfo.processInfo.environment["TMUX_PANE"]) -> TmuxClipboard? {
        var arguments = ["tmux", "display", "-p"]
        if let pane, !pane.isEmpty { arguments += ["-t", pane] }
        guard let text = CommandOutput.run(arguments + ["#{set-clipboard} #{allow-passthrough}"], timeout: budget)
        else { return nil }
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        guard fields.count == 2 else { return nil }
        return TmuxClipboard(setClipboard: fields[0], allowPassthrough: fields[1])
    }

    /// Whether the plain OSC 52 becomes a paste buffer and goes on to the terminal outside.
    public var takesCopies: Bool { setClipboard == "on" }
    /// Whether the passthrough copy reaches the terminal outside.
    public var passesThrough: Bool { ["1", "on", "all"].contains(allowPassthrough) }

    /// The status line's words after `y` sent `url` (`what`: "page URL", "image URL", "file's path") through tmux set
    /// up like this; nil settings: tmux could not be asked.
    public static func note(_ settings: TmuxClipboard?, what: String, url: String) -> String {
        guard let settings else {
            return "sent the \(what) with OSC 52, but tmux did not say whether it passes it on "
                + "(tmux set -g set-clipboard on does): \(url)"
        }
        if settings.takesCopies {
            return "copied the \(what) (OSC 52 through tmux, which keeps it as a paste buffer too): \(url)"
        }
        if settings.passesThrough {
            return "copied the \(what) (OSC 52 through tmux's allow-passthrough): \(url)"
        }
        return "not copied: tmux's set-clipboard is \(settings.setClipboard), which ignores programs; "
            + "tmux set -g set-clipboard on lets y copy: \(url)"
    }
}
