import Foundation

/// The kinds of terminal the test terminal answers as, and their answers to detection's queries.
extension PtyTerminal {
    /// How the terminal answers.
    enum Persona: Sendable, Equatable {
        /// kitty 0.35: `a=q` OK (with the placeholder key too), 10x20-pixel cells, XTVERSION, DA1 without sixel.
        /// The uploads whose numbers (1 for the first) are listed get an `EINVAL` error reply.
        case kitty(rejecting: Set<Int>)
        /// kitty 0.26.5 as Debian ships it: the protocol without Unicode placeholders. `a=q` OK, but a command with
        /// a key it does not know (`U`) is dropped unanswered, as kitty's parser does; direct placements (`a=p`)
        /// answered and recorded.
        case kittyDirect
        /// xterm -ti vt340 as measured: DA1 with 4, XTSMGRAPHICS, 6x13-pixel cells; no kitty reply.
        case sixel
        /// iTerm2 3.5: XTVERSION `iTerm2 3.5.11`, DA1 with sixel (4), its cell size (16x32 pixels on a Retina
        /// screen); no kitty or XTSMGRAPHICS reply. Inline images (`OSC 1337 ; File=`) are recorded.
        case iterm2
        /// Answers nothing.
        case silent
        /// Answers every query with broken sequences and random bytes, never a well-formed DA1.
        case garbage
        /// Answers as kitty, but only once the program has taken the screen (entered the alternate screen), so
        /// after detection has given up whatever the machine's speed: the answers come while the table runs.
        case late
        /// Answers as kitty, the first answer at once and each next one `delay` after the one before: a terminal
        /// over a slow link that has begun answering.
        case slow(Duration)

        static let kitty = Persona.kitty(rejecting: [])

        /// Whether the persona speaks the kitty graphics protocol.
        var speaksKitty: Bool {
            switch self {
            case .kitty, .kittyDirect, .late, .slow: true
            default: false
            }
        }
    }

    static let esc = "\u{1B}"

    /// The reply to one complete sequence the program wrote, as the persona answers it.
    func handle(_ sequence: OutputScanner.Sequence, cursor: (row: Int, column: Int)?, _ s: inout State) -> [UInt8]? {
        switch sequence {
        case .csi(let body):
            return queryReply(body)
        case .apc(let body):
            return kittyCommand(body, cursor: cursor, &s)
        case .osc(let body):
            inlineImage(body, cursor: cursor, &s)
            return nil
        }
    }

    private func queryReply(_ body: String) -> [UInt8]? {
        let e = Self.esc
        let kitty: [String: String] = [
            "16t": "\(e)[6;20;10t", ">q": "\(e)P>|kitty(0.35.2)\(e)\\", "c": "\(e)[?62;c",
        ]
        let sixel: [String: String] = [
            "16t": "\(e)[6;13;6t", ">q": "\(e)P>|XTerm(379)\(e)\\", "c": "\(e)[?63;1;2;4;6;9;15;16;22;28c",
            "?1;1;0S": "\(e)[?1;0;1024S", "?2;1;0S": "\(e)[?2;0;1000;1000S",
        ]
        let iterm2: [String: String] = [
            "16t": "\(e)[6;32;16t", ">q": "\(e)P>|iTerm2 3.5.11\(e)\\", "c": "\(e)[?62;4c",
        ]
        let text: String?
        switch persona {
        case .kitty, .late, .slow: text = kitty[body]
        case .kittyDirect: text = body == ">q" ? "\(e)P>|kitty(0.26.5)\(e)\\" : kitty[body]
        case .sixel: text = sixel[body]
        case .iterm2: text = iterm2[body]
        case .silent: text = nil
        case .garbage:
            guard ["16t", ">q", "c", "?1;1;0S", "?2;1;0S"].contains(body) else { return nil }
            var junk = Array("\(e)[?6x;;c\(e)_Gi=31;O\(e)[6;0;0t\u{9B}\(e)P>|".utf8)
            var generator = SystemRandomNumberGenerator()
            // No ESC or `c`: nothing in the noise can complete a DA1 answer by chance. No BEL, CAN, SUB or C1
            // control either, and the string closed at the end: the noise stays inside the DCS string it starts,
            // so whenever it arrives (during detection, or after it on a loaded machine) none of it is read as a key
            // and the string never stays open to swallow the keys typed after it.
            let ends: Set<UInt8> = [0x07, 0x18, 0x1A, 0x1B, 0x63]
            junk += (0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) }
                .filter { !ends.contains($0) && !(0x80...0x9F).contains($0) }
            junk += Array("\(e)\\".utf8)
            return junk
        }
        return text.map { Array($0.utf8) }
    }
}
