import Graphics
@testable import Terminal
import Testing

/// What curses read becomes the user's events: keys (with the terminal's replies taken out), clicks, double clicks,
/// wheel turns and one resize per read.
@Suite struct InputDecoderTests {
    /// The reads of `text`'s characters, as curses returns characters it did not decode.
    func characters(_ text: String) -> [CursesRead] {
        text.unicodeScalars.map { .character($0.value) }
    }

    func press(column: Int, row: Int) -> CursesRead {
        .mouse(MouseReport(buttons: .press, column: column, row: row))
    }

    @Test(arguments: [false, true])
    func charactersBecomeKeys(filtering: Bool) {
        var decoder = InputDecoder(filteringReplies: filtering)
        let events = decoder.decode(characters("j\r\t\u{7F}\u{04}é"), now: 0).events
        #expect(events == [.key(.character("j")), .key(.enter), .key(.tab), .key(.backspace), .key(.control("d")),
                           .key(.character("é"))])
    }

    @Test(arguments: [false, true])
    func escapeAloneIsTheEscapeKey(filtering: Bool) {
        var decoder = InputDecoder(filteringReplies: filtering)
        #expect(decoder.decode(characters("\u{1B}"), now: 0).events == [.key(.escape)])
        // And the next read starts afresh.
        #expect(decoder.decode(characters("q"), now: 0).events == [.key(.character("q"))])
    }

    @Test(arguments: [false, true])
    func altKeyIsEscapeThenTheKey(filtering: Bool) {
        var decoder = InputDecoder(filteringReplies: filtering)
        #expect(decoder.decode(characters("\u{1B}x"), now: 0).events == [.key(.escape), .key(.character("x"))])
    }

    @Test func keysCursesDecodedPassThrough() {
        var decoder = InputDecoder(filteringReplies: true)
        let events = decoder.decode([.key(.up), .key(.function(5)), .key(.unknown(999))], now: 0).events
        #expect(events == [.key(.up), .key(.function(5)), .key(.unknown(999))])
    }

    @Test func kittyRepliesAreTakenOutOfTheKeys() {
        var decoder = InputDecoder(filteringReplies: true)
        let decoded = decoder.decode(characters("j\u{1B}_Gi=300;EINVAL:bad\u{1B}\\k"), now: 0)
        #expect(decoded.events == [.key(.character("j")), .key(.character("k"))])
        #expect(decoded.replies == [KittyResponse(imageID: 300, message: "EINVAL:bad")])
    }

    @Test func withoutDetectionRepliesAreKeys() {
        // Nothing was asked (`--graphics text`): there is no reply to take out, and nothing is held back.
        var decoder = InputDecoder(filteringReplies: false)
        let decoded = decoder.decode(characters("\u{1B}[?62;c"), now: 0)
        #expect(decoded.events.count == 7)
        #expect(decoded.replies.isEmpty)
    }

    @Test func aTruncatedSequenceSwallowsUpToItsFinalByteAcrossReads() {
        var decoder = InputDecoder(filteringReplies: true)
        // A reply cut after `ESC [ ?62;`: nothing of it is a key, and its end in the next read is not either.
        #expect(decoder.decode(characters("\u{1B}[?62;"), now: 0).events.isEmpty)
        #expect(decoder.decode(characters("cj"), now: 0).events == [.key(.character("j"))])
        // A string cut before its terminator: Escape then a key always gets out.
        #expect(decoder.decode(characters("\u{1B}P>|kit"), now: 0).events.isEmpty)
        #expect(decoder.decode(characters("\u{1B}q"), now: 0).events == [.key(.escape), .key(.character("q"))])
    }

    @Test func pressesAreClicksAndASecondOnTheSameRowSoonIsADoubleClick() {
        var decoder = InputDecoder(filteringReplies: false)
        let second = InputDecoder.doubleClickNanoseconds
        #expect(decoder.decode([press(column: 3, row: 4)], now: 1_000).events == [.mouse(.init(.click, column: 3, row: 4))])
        #expect(decoder.decode([press(column: 9, row: 4)], now: 2_000).events
                == [.mouse(.init(.doubleClick, column: 9, row: 4))])
        // Another row, or too late: a click.
        #expect(decoder.decode([press(column: 9, row: 5)], now: 3_000).events == [.mouse(.init(.click, column: 9, row: 5))])
        #expect(decoder.decode([press(column: 9, row: 5)], now: 3_000 + second).events
                == [.mouse(.init(.click, column: 9, row: 5))])
    }

    @Test func wheelAndLargeCoordinates() {
        var decoder = InputDecoder(filteringReplies: false)
        let reads: [CursesRead] = [.mouse(MouseReport(buttons: .wheelUp, column: 1_000, row: 400)),
                                   .mouse(MouseReport(buttons: .wheelDown, column: 2, row: 3)),
                                   // A release or a move: nothing the table uses.
                                   .mouse(MouseReport(buttons: [], column: 2, row: 3)),
                                   .mouse(MouseReport(buttons: .doubleClick, column: 5, row: 6))]
        #expect(decoder.decode(reads, now: 0).events == [.mouse(.init(.wheelUp, column: 1_000, row: 400)),
                                                         .mouse(.init(.wheelDown, column: 2, row: 3)),
                                                         .mouse(.init(.doubleClick, column: 5, row: 6))])
    }

    @Test func resizesInARowAreOne() {
        var decoder = InputDecoder(filteringReplies: false)
        let events = decoder.decode([.resize, .resize, .character(0x6A), .resize], now: 0).events
        #expect(events == [.resize, .key(.character("j")), .resize])
    }

    @Test func charactersThatAreNoScalarAreUnknownKeys() {
        #expect(InputDecoder.key(forCharacter: 0xD800) == .unknown(0xD800))
        #expect(InputDecoder.key(forCharacter: 0x1A) == .control("z"))
    }
}
