import Graphics

/// One thing curses read from the terminal: a character, a key it decoded from an escape sequence, a mouse report,
/// or the resize it queued.
enum CursesRead: Equatable {
    case character(UInt32)
    case key(Key)
    case mouse(MouseReport)
    case resize
}

/// A mouse report as curses decoded it: which buttons did what, and where (0-based).
struct MouseReport: Equatable {
    struct Buttons: OptionSet, Equatable {
        let rawValue: UInt8
        static let press = Buttons(rawValue: 1 << 0)
        static let click = Buttons(rawValue: 1 << 1)
        static let doubleClick = Buttons(rawValue: 1 << 2)
        static let wheelUp = Buttons(rawValue: 1 << 3)
        static let wheelDown = Buttons(rawValue: 1 << 4)
    }
    /// What the first button and the wheel did.
    var buttons: Buttons
    var column: Int
    var row: Int
}

/// What a read of the terminal's input comes to: the user's events, and the kitty graphics replies found among the
/// keys.
struct DecodedInput: Equatable {
    var events: [InputEvent] = []
    var replies: [KittyResponse] = []
}

/// Turns what curses read into the user's events: characters into keys (with the terminal's replies taken out by
/// `TerminalReplyFilter` when detection asked it anything), mouse reports into clicks, double clicks and wheel
/// turns, and repeated resizes into one.
///
/// Pure: curses reads the bytes (`CursesScreen`); the time of each read is given, so double clicks are testable.
struct InputDecoder {
    /// How close in time two presses on one row are to be a double click.
    static let doubleClickNanoseconds: UInt64 = 400_000_000

    /// Set when detection asked the terminal anything: its answers (late ones too) are kept out of the keys.
    private var replyFilter: TerminalReplyFilter?
    private var lastPress: (row: Int, column: Int, time: UInt64)?

    init(filteringReplies: Bool) {
        replyFilter = filteringReplies ? TerminalReplyFilter() : nil
    }

    /// The events of one read: everything curses had, read at `now` (nanoseconds of a monotonic clock).
    mutating func decode(_ reads: [CursesRead], now: UInt64) -> DecodedInput {
        var decoded = DecodedInput()
        for read in reads {
            switch read {
            case .key(let key):
                decoded.events.append(.key(key))
            case .mouse(let report):
                if let event = mouse(report, now: now) { decoded.events.append(.mouse(event)) }
            case .resize:
                if decoded.events.last != .resize { decoded.events.append(.resize) }
            case .character(let character):
                take(character, into: &decoded)
            }
        }
        // An Escape last in a read is the Escape key: replies come whole in one burst.
        if let escape = replyFilter?.endOfInput() { decoded.events.append(.key(Self.key(forCharacter: escape))) }
        return decoded
    }

    private mutating func take(_ character: UInt32, into decoded: inout DecodedInput) {
        guard replyFilter != nil else {
            decoded.events.append(.key(Self.key(forCharacter: character)))
            return
        }
        switch replyFilter!.feed(character) {
        case .characters(let characters):
            decoded.events += characters.map { .key(Self.key(forCharacter: $0)) }
        case .reply(let response):
            decoded.replies.append(response)
        case .swallowed:
            break
        }
    }

    /// A click, a double click (a second press on the same row within `doubleClickNanoseconds`: curses is not made
    /// to wait and tell them apart) or a wheel turn; nil for what the table does not use (releases, moves).
    private mutating func mouse(_ report: MouseReport, now: UInt64) -> MouseEvent? {
        let (row, column) = (report.row, report.column)
        if report.buttons.contains(.wheelUp) { return MouseEvent(.wheelUp, column: column, row: row) }
        if report.buttons.contains(.wheelDown) { return MouseEvent(.wheelDown, column: column, row: row) }
        if !report.buttons.isDisjoint(with: [.press, .click]) {
            defer { lastPress = (row, column, now) }
            if let last = lastPress, last.row == row, now - last.time < Self.doubleClickNanoseconds {
                lastPress = nil
                return MouseEvent(.doubleClick, column: column, row: row)
            }
            return MouseEvent(.click, column: column, row: row)
        }
        if report.buttons.contains(.doubleClick) { return MouseEvent(.doubleClick, column: column, row: row) }
        return nil
    }

    /// The key of a character curses did not decode: Enter, Escape, Tab, Backspace, Ctrl+letter, or the character.
    static func key(forCharacter value: UInt32) -> Key {
        switch value {
        case 13, 10: return .enter
        case 27: return .escape
        case 9: return .tab
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(value + 96))))
        default:
            guard let scalar = Unicode.Scalar(value) else { return .unknown(Int32(bitPattern: value)) }
            return .character(Character(scalar))
        }
    }
}
