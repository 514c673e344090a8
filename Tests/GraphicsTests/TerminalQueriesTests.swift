import Graphics
import Testing

@Suite struct TerminalQueriesTests {
    @Test func autoAsksEverythingWithDA1Last() {
        let bytes = TerminalQueries.bytes(for: .auto, insideTmux: false)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
            + "\u{1B}_Gi=32,s=1,v=1,a=q,t=d,f=24,U=1;AAAA\u{1B}\\"), "the placeholder query right after kitty's")
        #expect(text.contains("\u{1B}[16t") && text.contains("\u{1B}[?2;1;0S") && text.contains("\u{1B}[>q"))
        #expect(text.hasSuffix("\u{1B}[c"))
    }

    @Test func textAsksNothingAndForcedAsksTheCellSize() {
        #expect(TerminalQueries.bytes(for: .text, insideTmux: false).isEmpty)
        #expect(TerminalQueries.bytes(for: .forced(.kitty), insideTmux: false) == Array("\u{1B}[16t\u{1B}[c".utf8))
    }

    @Test func passthroughDoublesEveryEscape() {
        let wrapped = TmuxPassthrough.wrap(Array("\u{1B}_Gm=1;AB\u{1B}\\".utf8))
        #expect(wrapped == Array("\u{1B}Ptmux;\u{1B}\u{1B}_Gm=1;AB\u{1B}\u{1B}\\\u{1B}\\".utf8))
        let queries = TerminalQueries.bytes(for: .forced(.kitty), insideTmux: true)
        #expect(queries == Array("\u{1B}Ptmux;\u{1B}\u{1B}[16t\u{1B}\\\u{1B}Ptmux;\u{1B}\u{1B}[c\u{1B}\\".utf8))
    }
}
