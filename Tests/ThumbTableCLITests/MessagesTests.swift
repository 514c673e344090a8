import Testing
@testable import ThumbTableCLI

/// Messages keep their line breaks and show every other control character.
@Suite struct MessagesTests {
    @Test(arguments: [
        ("plain\nlines\n", "plain\nlines\n"),
        ("x\u{1B}[31m.png", "x^[[31m.png"),
        ("\u{1B}]52;c;aGk=\u{07}", "^[]52;c;aGk=^G"),
        ("a\r\nb", "a^M\nb"),
        ("over\rwrite", "over^Mwrite"),
        ("c1 \u{9B}2J", "c1 <U+009B>2J"),
        ("bidi \u{202E}gnp.exe", "bidi <U+202E>gnp.exe"),
        ("tab\there", "tab here"),
        ("bad \u{FFFD} byte", "bad \u{FFFD} byte"),
    ])
    func everyControlButTheLineFeedIsShown(_ text: String, _ expected: String) {
        #expect(Messages.visible(text) == expected)
    }
}

/// An argument that is not UTF-8 is refused, named with U+FFFD where its bad bytes were.
@Suite struct RawArgumentsTests {
    @Test func everyUTF8ArgumentPasses() {
        #expect(RawArguments.notUTF8(in: [Array("render".utf8), Array("caf\u{E9} \u{1B}[31m.png".utf8)]) == nil)
        #expect(RawArguments.notUTF8(in: []) == nil)
    }

    @Test func theFirstArgumentThatIsNotUTF8IsNamed() throws {
        let message = try #require(RawArguments.notUTF8(in: [Array("render".utf8), [0x61, 0xFF, 0x62], [0xC3]]))
        #expect(message.hasPrefix("argument 2, 'a\u{FFFD}b', is not UTF-8"))
    }
}
