#if canImport(Glibc)
import Glibc
#endif
@testable import Terminal
import Testing
import TestSupport

/// Bytes typed into a real terminal (a pty) come out as events: the real ncursesw decodes keys and mouse reports
/// with the xterm-256color entry, and `InputDecoder` makes them events, as `Terminal.readEvents` does.
///
/// Serialized, on the main actor: curses has one current screen per process.
@MainActor
@Suite(.serialized) struct CursesInputTests {
    /// A curses screen on a new pty of 400 x 150 cells; the test types into the pty's master side.
    @MainActor
    final class PtyScreen {
        let master: Int32
        let slave: Int32
        let curses: CursesScreen
        var decoder: InputDecoder

        init(filteringReplies: Bool = false) throws {
            master = PtyCalls.openpt(O_RDWR | O_NOCTTY)
            guard master >= 0, PtyCalls.grantpt(master) == 0, PtyCalls.unlockpt(master) == 0,
                  let name = PtyCalls.ptsname(master) else { throw PtyFailure.open }
            var size = winsize(ws_row: 150, ws_col: 400, ws_xpixel: 0, ws_ypixel: 0)
            _ = ioctl(master, UInt(TIOCSWINSZ), &size)
            slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
            guard slave >= 0,
                  let curses = CursesScreen(entry: "xterm-256color", device: TerminalDevice(input: slave, output: slave))
            else { throw PtyFailure.open }
            self.curses = curses
            decoder = InputDecoder(filteringReplies: filteringReplies)
            curses.takeKeysAndMouse()
            curses.refresh()
        }

        enum PtyFailure: Error { case open }

        /// Types `text` and returns the events of one read, once curses can read it.
        func events(typing text: String) -> [InputEvent] {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            var ready = pollfd(fd: slave, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, Int32(Deadline.generous.components.seconds * 1000))
            drainOutput()
            return decoder.decode(curses.readAll(), now: 0).events
        }

        /// Reads what curses wrote, so it never waits on a full pty.
        func drainOutput() {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var pending = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            while poll(&pending, 1, 0) == 1, read(master, &buffer, buffer.count) > 0 {}
        }

        func close() {
            curses.stopMouse()
            curses.end()
            curses.delete()
            drainOutput()
            Glibc.close(slave)
            Glibc.close(master)
        }
    }

    @Test func arrowsPagesAndFunctionKeys() throws {
        let pty = try PtyScreen()
        defer { pty.close() }
        #expect(pty.events(typing: "\u{1B}OA\u{1B}OB\u{1B}[5~\u{1B}[6~\u{1B}OH\u{1B}[3~\u{1B}[15~\u{1B}[Z")
                == [.key(.up), .key(.down), .key(.pageUp), .key(.pageDown), .key(.home), .key(.delete),
                    .key(.function(5)), .key(.tab)])
    }

    @Test(arguments: [false, true])
    func escapeAloneAndAltKey(filtering: Bool) throws {
        let pty = try PtyScreen(filteringReplies: filtering)
        defer { pty.close() }
        #expect(pty.events(typing: "\u{1B}") == [.key(.escape)])
        #expect(pty.events(typing: "\u{1B}x") == [.key(.escape), .key(.character("x"))])
        #expect(pty.events(typing: "q") == [.key(.character("q"))])
    }

    @Test func controlKeysAndUTF8() throws {
        // UTF-8 as the program's locale has it (LANG=C.UTF-8), for this thread only: other suites run meanwhile.
        let utf8 = try #require(newlocale(LC_CTYPE_MASK, "C.UTF-8", nil))
        let previous = uselocale(utf8)
        defer {
            uselocale(previous)
            freelocale(utf8)
        }
        let pty = try PtyScreen()
        defer { pty.close() }
        #expect(pty.events(typing: "\u{03}\r\u{7F}é界") == [.key(.control("c")), .key(.enter), .key(.backspace),
                                                            .key(.character("é")), .key(.character("界"))])
    }

    @Test func sgrMouseWithLargeCoordinates() throws {
        let pty = try PtyScreen()
        defer { pty.close() }
        // SGR (1006) reports are 1-based; column 300 and row 120 are past what the old X10 reports can carry.
        #expect(pty.events(typing: "\u{1B}[<0;300;120M\u{1B}[<0;300;120m")
                == [.mouse(MouseEvent(.click, column: 299, row: 119))])
        #expect(pty.events(typing: "\u{1B}[<64;10;5M") == [.mouse(MouseEvent(.wheelUp, column: 9, row: 4))])
        #expect(pty.events(typing: "\u{1B}[<65;10;5M") == [.mouse(MouseEvent(.wheelDown, column: 9, row: 4))])
    }

    @Test func aTruncatedReplyIsNoKeys() throws {
        let pty = try PtyScreen(filteringReplies: true)
        defer { pty.close() }
        // A late answer to detection, cut in two reads: none of it is a key, and the next key is.
        #expect(pty.events(typing: "\u{1B}[?62;").isEmpty)
        #expect(pty.events(typing: "cj") == [.key(.character("j"))])
    }
}
