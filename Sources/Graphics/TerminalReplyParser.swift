/// Reads the terminal's answers to detection's queries out of what it sends: in any order, in pieces, mixed with
/// keys the user typed and with garbage.
///
/// A byte state machine over the escape sequence shapes (CSI, and the string sequences APC, DCS, OSC); every
/// complete sequence is read by its own shape, never by its position, and anything unknown is dropped. A sequence
/// longer than `maxSequence` is given up, so garbage cannot grow memory.
public struct TerminalReplyParser: Sendable {
    public private(set) var replies = TerminalReplies()

    /// The longest sequence kept: a kitty reply, a version string and DA1 are far shorter.
    public static let maxSequence = 1024

    private enum StringKind: Sendable { case apc, dcs, osc }
    private enum State: Sendable {
        case ground, escape, csi
        case string(StringKind)
        /// An ESC inside a string: `\` ends it, anything else starts a new sequence.
        case stringEscape(StringKind)
    }

    private var state = State.ground
    private var sequence: [UInt8] = []

    public init() {}

    /// Whether DA1's answer has come: everything asked before it has been answered by then, or never will be.
    public var isComplete: Bool { replies.primaryAttributes != nil }

    /// Takes the next bytes from the terminal.
    public mutating func feed(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { step(byte) }
    }

    private mutating func step(_ byte: UInt8) {
        // CAN and SUB cancel any sequence, as in a terminal.
        if byte == 0x18 || byte == 0x1A {
            state = .ground
            return
        }
        switch state {
        case .ground:
            if byte == 0x1B { state = .escape }
        case .escape:
            sequence.removeAll(keepingCapacity: true)
            switch byte {
            case UInt8(ascii: "["): state = .csi
            case UInt8(ascii: "_"): state = .string(.apc)
            case UInt8(ascii: "P"): state = .string(.dcs)
            case UInt8(ascii: "]"): state = .string(.osc)
            case 0x1B: state = .escape
            default: state = .ground
            }
        case .csi:
            if (0x40...0x7E).contains(byte) {
                state = .ground
                readCSI(final: byte)
            } else if byte == 0x1B {
                state = .escape
            } else if (0x20...0x3F).contains(byte), sequence.count < Self.maxSequence {
                sequence.append(byte)
            } else {
                state = .ground
            }
        case .string(let kind):
            if byte == 0x1B {
                state = .stringEscape(kind)
            } else if byte == 0x07 && kind == .osc {
                state = .ground
            } else if sequence.count < Self.maxSequence {
                sequence.append(byte)
            } else {
                state = .ground
            }
        case .stringEscape(let kind):
            if byte == UInt8(ascii: "\\") {
                state = .ground
                readString(kind)
            } else {
                state = .escape
                step(byte)
            }
        }
    }

    private mutating func readCSI(final: UInt8) {
        let isPrivate = sequence.first == UInt8(ascii: "?")
        let parameters = Self.numbers(isPrivate ? Array(sequence.dropFirst()) : sequence)
        switch final {
        case UInt8(ascii: "c") where isPrivate:
            // DA1 (DA2 starts with `>` and is not asked). Inside tmux none arrives: tmux takes the outer terminal's as
            // the answer to its own question.
            if replies.primaryAttributes == nil { replies.primaryAttributes = parameters.compactMap { $0 } }
        case UInt8(ascii: "S") where isPrivate && parameters.count >= 3 && parameters[1] == 0:
            if parameters[0] == 1 {
                replies.sixelColorRegisters = parameters[2]
            } else if parameters[0] == 2, parameters.count >= 4 {
                replies.sixelMaxWidth = parameters[2]
                replies.sixelMaxHeight = parameters[3]
            }
        case UInt8(ascii: "t") where !isPrivate && parameters.count == 3 && parameters[0] == 6:
            if let height = parameters[1], let width = parameters[2] {
                replies.toldCellPixels = (width, height)
                replies.cellPixels = CellPixelSize(checkedWidth: width, height: height)
            }
        default:
            break
        }
    }

    private mutating func readString(_ kind: StringKind) {
        switch kind {
        case .apc:
            guard let response = KittyResponse(apcBody: sequence) else { return }
            if response.imageID == UInt32(TerminalQueries.kittyQueryID), replies.kittyQuery == nil {
                replies.kittyQuery = response.message
            } else if response.imageID == UInt32(TerminalQueries.kittyPlaceholderQueryID),
                      replies.kittyPlaceholderQuery == nil {
                replies.kittyPlaceholderQuery = response.message
            } else {
                replies.kittyResponses.append(response)
            }
        case .dcs:
            // XTVERSION: `DCS > | text ST`.
            guard sequence.starts(with: [UInt8(ascii: ">"), UInt8(ascii: "|")]) else { return }
            replies.version = String(decoding: sequence.dropFirst(2).filter { (0x20...0x7E).contains($0) },
                                     as: UTF8.self)
        case .osc:
            break
        }
    }

    /// The `;`-separated numbers of a CSI's parameters; nil for an empty or non-numeric one.
    private static func numbers(_ bytes: [UInt8]) -> [Int?] {
        bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { field in
            guard !field.isEmpty, field.count <= 9, field.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int(String(decoding: field, as: UTF8.self))
        }
    }
}
