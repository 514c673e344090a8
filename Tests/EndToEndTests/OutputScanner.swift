/// Finds the escape sequences in what a program writes: CSI sequences (as their parameter and final bytes), APC
/// strings (kitty commands) and OSC strings (iTerm2 images), their bodies; everything else passes. Keeps where the
/// cursor is when the program last put it somewhere with CUP and has not moved it since (SGR and the string
/// sequences leave it), which is where a kitty placement made then lands.
struct OutputScanner {
    enum Sequence {
        case csi(String)
        case apc([UInt8])
        case osc([UInt8])
    }

    private enum State { case ground, escape, csi, apc, apcEscape, osc, oscEscape, other, otherEscape }
    private var state = State.ground
    private var body: [UInt8] = []
    /// The cell (row, column from 0) CUP last moved the cursor to; nil once anything else may have moved it.
    private(set) var cursor: (row: Int, column: Int)?

    mutating func step(_ byte: UInt8) -> Sequence? {
        switch state {
        case .ground:
            if byte == 0x1B { state = .escape } else { cursor = nil }
        case .escape:
            body.removeAll(keepingCapacity: true)
            switch byte {
            case UInt8(ascii: "["): state = .csi
            case UInt8(ascii: "_"): state = .apc
            case UInt8(ascii: "]"): state = .osc
            case UInt8(ascii: "P"): state = .other
            case 0x1B: state = .escape
            default:
                state = .ground
                cursor = nil
            }
        case .csi:
            if (0x40...0x7E).contains(byte) {
                state = .ground
                body.append(byte)
                let text = String(decoding: body, as: UTF8.self)
                track(text)
                return .csi(text)
            }
            if byte == 0x1B { state = .escape } else { body.append(byte) }
        case .apc:
            if byte == 0x1B { state = .apcEscape } else { body.append(byte) }
        case .apcEscape:
            state = .ground
            if byte == UInt8(ascii: "\\") { return .apc(body) }
        case .osc:
            if byte == 0x07 {
                state = .ground
                return .osc(body)
            }
            if byte == 0x1B { state = .oscEscape } else { body.append(byte) }
        case .oscEscape:
            state = .ground
            if byte == UInt8(ascii: "\\") { return .osc(body) }
        case .other:
            if byte == 0x1B { state = .otherEscape } else if byte == 0x07 { state = .ground }
        case .otherEscape:
            state = byte == UInt8(ascii: "\\") ? .ground : .other
        }
        return nil
    }

    /// CUP (`CSI row ; column H`, or `f`) sets the cursor; SGR and mode changes leave it; anything else forgets it.
    private mutating func track(_ csi: String) {
        guard let final = csi.last else { return }
        switch final {
        case "H", "f":
            let numbers = csi.dropLast().split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 1 }
            cursor = (max(1, numbers.first ?? 1) - 1, max(1, numbers.count > 1 ? numbers[1] : 1) - 1)
        case "m", "h", "l", "t", "c", "q", "S", "n":
            break
        default:
            cursor = nil
        }
    }
}
