/// What the user did: a key, a mouse action, a terminal resize, or a signal (SIGTERM, SIGTSTP, SIGCONT...).
public enum InputEvent: Sendable, Equatable {
    case key(Key)
    case mouse(MouseEvent)
    case resize
    /// One of `Terminal.endingSignals`, SIGTSTP or SIGCONT, arrived.
    case signal(Int32)
}

/// A key press, with curses' key codes already translated.
public enum Key: Sendable, Hashable {
    case character(Character)
    /// Ctrl plus a letter, given as the lowercase letter (Ctrl-D is `.control("d")`).
    case control(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, tab, delete
    case function(Int)
    case unknown(Int32)
}

/// A mouse action at a screen position (0-based columns and rows).
public struct MouseEvent: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case click, doubleClick, wheelUp, wheelDown
    }
    public var action: Action
    public var column: Int
    public var row: Int

    public init(_ action: Action, column: Int, row: Int) {
        self.action = action
        self.column = column
        self.row = row
    }
}
