import Graphics

/// Takes the terminal's replies out of the keys: a kitty graphics answer (`ESC _ G ... ESC \`) and any other
/// escape sequence curses did not turn into a key (a late answer to detection: DA1, `CSI 16 t`, XTVERSION) would
/// otherwise arrive as Escape, `_`, `G`, `?`... and be taken as key presses.
///
/// Fed the characters curses reads, in order, across reads; an Escape last in a read is a key (replies come whole
/// in one burst, and the Escape key must not wait for the next key).
///
/// A sequence is swallowed whole however long it is: a CSI to its final byte, a string (DCS, OSC, APC) to its
/// terminator (ST, or BEL), so no tail of a long reply is ever read as keys. Only what is kept is bounded: an APC's
/// body beyond `maxSequence` is dropped, and that string then ends at ST or BEL like the others. An Escape inside a
/// sequence that does not terminate it starts a new one, so pressing Escape and a key always gets out.
struct TerminalReplyFilter {
    private enum State {
        case ground
        case escape
        case csi
        /// A string sequence (APC, DCS, OSC) and whether it is an APC, whose body is kept.
        case string(apc: Bool)
        case stringEscape(apc: Bool)
    }

    /// The longest APC body kept (a kitty reply is far shorter): beyond it the body is dropped, and the rest of the
    /// string is swallowed to its terminator.
    static let maxSequence = 4096

    private var state = State.ground
    private var body: [UInt8] = []
    private var length = 0

    /// What one character turned into: a key (the character itself, or an Escape held back and then the character),
    /// a kitty reply, or nothing (swallowed).
    enum Output: Equatable {
        case characters([UInt32])
        case reply(KittyResponse)
        case swallowed
    }

    mutating func feed(_ character: UInt32) -> Output {
        switch state {
        case .ground:
            if character == 27 {
                state = .escape
                return .swallowed
            }
            return .characters([character])
        case .escape:
            length = 0
            body.removeAll(keepingCapacity: true)
            switch character {
            case 0x5B: state = .csi
            case 0x5F: state = .string(apc: true)
            case 0x50, 0x5D: state = .string(apc: false)
            default:
                // Alt+key, or Escape then a key: both as they were.
                state = character == 27 ? .escape : .ground
                return .characters(character == 27 ? [27] : [27, character])
            }
            return .swallowed
        case .csi:
            // Every character up to the final byte is the sequence's, however many: a letter or `~` ends it, so
            // the next key after an Alt+[ does.
            if (0x40...0x7E).contains(character) {
                state = .ground
            } else if character == 27 {
                state = .escape
            }
            return .swallowed
        case .string(let apc):
            length += 1
            if character == 27 {
                state = .stringEscape(apc: apc)
            } else if character == 7 && !apc {
                state = .ground
            } else if apc && length > Self.maxSequence {
                // Too long to be a kitty reply: nothing of it is kept, and it ends as the other strings do.
                state = .string(apc: false)
                body.removeAll()
            } else if apc, character < 0x80 {
                body.append(UInt8(character))
            }
            return .swallowed
        case .stringEscape(let apc):
            state = .ground
            if character == 0x5C, apc, let response = KittyResponse(apcBody: body) { return .reply(response) }
            if character == 0x5C { return .swallowed }
            // Not a terminator: the sequence was cut; what follows starts anew.
            state = .escape
            return feed(character)
        }
    }

    /// The end of a read: an Escape waiting to see what follows is the Escape key.
    mutating func endOfInput() -> UInt32? {
        guard case .escape = state else { return nil }
        state = .ground
        return 27
    }
}
