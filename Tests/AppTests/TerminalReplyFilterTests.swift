import Graphics
@testable import Terminal
import Testing

/// The terminal's answers are kept out of the keys: a kitty error for an image is reported, a late answer to
/// detection is swallowed, and Escape and Alt+key stay keys.
@Suite struct TerminalReplyFilterTests {
    /// Feeds `text` as one read; returns the keys that came out and the kitty replies.
    func run(_ text: String, filter: inout TerminalReplyFilter) -> (keys: String, replies: [KittyResponse]) {
        var keys: [UInt32] = []
        var replies: [KittyResponse] = []
        for scalar in text.unicodeScalars {
            switch filter.feed(scalar.value) {
            case .characters(let characters): keys += characters
            case .reply(let response): replies.append(response)
            case .swallowed: break
            }
        }
        if let escape = filter.endOfInput() { keys.append(escape) }
        return (String(String.UnicodeScalarView(keys.compactMap(Unicode.Scalar.init))), replies)
    }

    @Test func kittyErrorsAreRepliesNotKeys() {
        var filter = TerminalReplyFilter()
        let out = run("j\u{1B}_Gi=300;EINVAL:bad\u{1B}\\k", filter: &filter)
        #expect(out.keys == "jk")
        #expect(out.replies == [KittyResponse(imageID: 300, message: "EINVAL:bad")])
    }

    @Test func lateDetectionAnswersAreSwallowed() {
        var filter = TerminalReplyFilter()
        // DA1's `?` would open the help and `c` would be a key: none may come through.
        let out = run("\u{1B}[?62;c\u{1B}[6;20;10t\u{1B}P>|kitty(0.35.2)\u{1B}\\q", filter: &filter)
        #expect(out.keys == "q")
        #expect(out.replies.isEmpty)
    }

    @Test func escapeAndAltKeysStayKeys() {
        var filter = TerminalReplyFilter()
        #expect(run("\u{1B}", filter: &filter).keys == "\u{1B}")
        #expect(run("\u{1B}x", filter: &filter).keys == "\u{1B}x")
        #expect(run("\u{1B}\u{1B}", filter: &filter).keys == "\u{1B}\u{1B}")
    }

    @Test func aReplySplitAcrossReadsIsStillOneReply() {
        var filter = TerminalReplyFilter()
        let first = run("\u{1B}_Gi=7;ENO", filter: &filter)
        let second = run("ENT:gone\u{1B}\\", filter: &filter)
        #expect(first.keys.isEmpty && first.replies.isEmpty)
        #expect(second.replies == [KittyResponse(imageID: 7, message: "ENOENT:gone")])
    }

    /// Replies longer than the kept body, in every string kind and terminator, and a CSI as long: nothing of them
    /// comes through as keys, in one read or cut into reads anywhere.
    @Test(arguments: [4097, 4100, 5000, 70_000])
    func aLongReplyIsSwallowedToItsTerminator(length: Int) {
        let tail = String(repeating: "x", count: length)
        let replies = [
            "\u{1B}P>|\(tail)q\u{1B}\\",      // DCS, ST: `q` would quit
            "\u{1B}P>|\(tail)o\u{07}",          // DCS, BEL: `o` would open the browser
            "\u{1B}]11;\(tail)q\u{07}",         // OSC, BEL
            "\u{1B}]11;\(tail)q\u{1B}\\",      // OSC, ST
            "\u{1B}_Gi=1;\(tail)q\u{1B}\\",    // APC, ST
            "\u{1B}_Gi=1;\(tail)q\u{07}",       // APC, BEL
            "\u{1B}[\(String(repeating: "1;", count: length / 2))q",  // CSI: a final byte
        ]
        for reply in replies {
            var whole = TerminalReplyFilter()
            let out = run("j" + reply + "k", filter: &whole)
            #expect(out.keys == "jk", "\(reply.prefix(6).debugDescription)… in one read")
            #expect(out.replies.isEmpty)
            var pieces = TerminalReplyFilter()
            var keys = ""
            let scalars = Array(("j" + reply + "k").unicodeScalars)
            for start in stride(from: 0, to: scalars.count, by: 1000) {
                let piece = String(String.UnicodeScalarView(scalars[start..<min(scalars.count, start + 1000)]))
                keys += run(piece, filter: &pieces).keys
            }
            #expect(keys == "jk", "\(reply.prefix(6).debugDescription)… in reads of 1,000")
        }
    }

    @Test func escapeAndAKeyLeaveAnUnendedString() {
        // A string that never ends (Alt+Shift+P sends `ESC P`): Escape and a key get out of it.
        var filter = TerminalReplyFilter()
        #expect(run("\u{1B}Pabc", filter: &filter).keys.isEmpty)
        #expect(run("\u{1B}x", filter: &filter).keys == "\u{1B}x")
        #expect(run("q", filter: &filter).keys == "q")
    }
}
