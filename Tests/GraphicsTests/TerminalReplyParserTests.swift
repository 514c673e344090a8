import Graphics
import Testing

@Suite struct TerminalReplyParserTests {
    private func parse(_ text: String, in pieces: Int = 1) -> TerminalReplyParser {
        var parser = TerminalReplyParser()
        let bytes = Array(text.utf8)
        let size = max(1, (bytes.count + pieces - 1) / pieces)
        for start in stride(from: 0, to: bytes.count, by: size) {
            parser.feed(bytes[start..<min(start + size, bytes.count)])
        }
        return parser
    }

    static let kitty = "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}P>|kitty(0.35.2)\u{1B}\\\u{1B}[?62;c"
    static let xterm = "\u{1B}[?1;0;1024S\u{1B}[?2;0;1000;1000S\u{1B}[6;13;6t\u{1B}P>|XTerm(379)\u{1B}\\"
        + "\u{1B}[?63;1;2;4;6;9;15;16;22;28c"

    @Test func kittyAnswersAreRead() {
        let parser = parse(Self.kitty)
        #expect(parser.isComplete)
        #expect(parser.replies.kittyQuery == "OK")
        #expect(parser.replies.cellPixels == CellPixelSize(width: 10, height: 20))
        #expect(parser.replies.version == "kitty(0.35.2)")
        #expect(parser.replies.primaryAttributes == [62])
        #expect(!parser.replies.listsSixel)
    }

    @Test func sixelTerminalAnswersAreRead() {
        let parser = parse(Self.xterm)
        #expect(parser.replies.listsSixel)
        #expect(parser.replies.kittyQuery == nil)
        #expect(parser.replies.sixelColorRegisters == 1024)
        #expect(parser.replies.sixelMaxWidth == 1000 && parser.replies.sixelMaxHeight == 1000)
        #expect(parser.replies.cellPixels == CellPixelSize(width: 6, height: 13))
    }

    @Test func answersSplitIntoSingleBytesAreRead() {
        let whole = parse(Self.xterm)
        let bytewise = parse(Self.xterm, in: Self.xterm.utf8.count)
        #expect(bytewise.replies == whole.replies)
    }

    @Test func sixelIsAnAttributeNotADigit() {
        // 64 and 24 hold a 4 but are not sixel; the class (first number) is not an attribute.
        #expect(!parse("\u{1B}[?64;24;1c").replies.listsSixel)
        #expect(!parse("\u{1B}[?4;1c").replies.listsSixel)
        #expect(parse("\u{1B}[?62;4c").replies.listsSixel)
    }

    @Test func garbageAndKeysAroundTheAnswersAreIgnored() {
        let noisy = "jk\u{1B}[A\u{7}\u{1B}]11;rgb:0000/0000/0000\u{7}\u{1B}_Gi=31;OK\u{1B}\\xx\u{1B}[?z\u{1B}[6;20;10t"
            + "\u{1B}[?62;c"
        let parser = parse(noisy)
        #expect(parser.replies.kittyQuery == "OK")
        #expect(parser.replies.cellPixels == CellPixelSize(width: 10, height: 20))
        #expect(parser.isComplete)
    }

    @Test func aPartialAnswerIsNotComplete() {
        let parser = parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;")
        #expect(parser.replies.kittyQuery == "OK")
        #expect(!parser.isComplete)
    }

    @Test func anInterruptedSequenceStartsOverAtTheNextEscape() {
        // The kitty answer is cut by a new ESC [: the APC is dropped, the CSI that follows is read.
        let parser = parse("\u{1B}_Gi=31;O\u{1B}[6;20;10t\u{1B}[?1;2c")
        #expect(parser.replies.kittyQuery == nil)
        #expect(parser.replies.cellPixels == CellPixelSize(width: 10, height: 20))
        #expect(parser.isComplete)
    }

    @Test func implausibleCellSizesAndEndlessSequencesAreDropped() {
        #expect(parse("\u{1B}[6;0;0t").replies.cellPixels == nil)
        #expect(parse("\u{1B}[6;99999999999;5t").replies.cellPixels == nil)
        let endless = "\u{1B}_G" + String(repeating: "A", count: 5000) + "\u{1B}\\\u{1B}[?1;2c"
        let parser = parse(endless)
        #expect(parser.replies.kittyQuery == nil && parser.replies.kittyResponses.isEmpty)
        #expect(parser.isComplete)
    }

    @Test func kittyErrorsForImagesAreKeptWithTheirIDs() {
        let parser = parse("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\\u{1B}_Gi=1234;ENOENT:gone\u{7}\u{1B}\\")
        #expect(parser.replies.kittyQuery == "ENOTSUPPORTED:no")
        #expect(!parser.replies.kittyAnswersOK)
        // The BEL inside the message is not printable: dropped, the rest kept.
        #expect(parser.replies.kittyResponses == [KittyResponse(imageID: 1234, message: "ENOENT:gone")])
    }

    @Test func versionStringsLoseControlCharacters() {
        #expect(parse("\u{1B}P>|evil\u{9B}\u{8}(1)\u{1B}\\").replies.version == "evil(1)")
    }

    @Test func thePlaceholderQueryIsReadApartFromTheFirst() {
        let parser = parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=32;OK\u{1B}\\\u{1B}[?62;c", in: 7)
        #expect(parser.replies.kittyAnswersOK && parser.replies.kittyPlaceholdersAnswerOK)
        #expect(parser.replies.kittyResponses.isEmpty)
        // kitty 0.26 answers the first only: the second is missing, not an error.
        let old = parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;c")
        #expect(old.replies.kittyAnswersOK && old.replies.kittyPlaceholderQuery == nil)
    }

    /// A cell size no screen has is not believed, but what was told is kept for the note that says so.
    @Test(arguments: [(0, 0), (65535, 65535), (0, 20), (10, 65535)])
    func implausibleCellSizesAreKeptAsTold(_ size: (width: Int, height: Int)) {
        let replies = parse("\u{1B}[6;\(size.height);\(size.width)t\u{1B}[?62;c").replies
        #expect(replies.cellPixels == nil)
        #expect(replies.toldCellPixels?.width == size.width && replies.toldCellPixels?.height == size.height)
        #expect(replies.hasAnswers)
        #expect(!TerminalReplies().hasAnswers)
    }
}
