import Foundation
import Testing

/// The table's colours as a real terminal receives them (tmux's `capture-pane -e`): 24-bit colour in a terminal that
/// has it, by its terminfo entry or by COLORTERM; the 256 palette without; none under NO_COLOR; what --color asks;
/// and only greys for a grey photo in an 8-colour terminal.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct ColorEndToEndTests {
    /// The demo, with COLORTERM and NO_COLOR empty unless a test sets them: the test runner's own must not leak in.
    func demo(_ environment: [String: String], _ arguments: [String] = []) throws -> TmuxSession {
        var env = ["COLORTERM": "", "NO_COLOR": ""]
        env.merge(environment) { $1 }
        return try TmuxSession(DemoEndToEndTests.fastDemo + arguments, environment: env)
    }

    /// Waits for the first screen of the demo with every visible thumbnail settled; returns it with its escapes.
    /// The demo's first screen once its thumbnails are drawn (no spinner is not enough: on a loaded machine the rows
    /// can be on screen before their pictures are asked for) and the screen is steady; with its colours.
    func settledDemo(_ tmux: TmuxSession) async throws -> String {
        try await tmux.waitForSteady("the first rows with thumbnails") { lines in
            lines.first?.contains(" 1 / 20") == true && lines.contains { $0.contains("Human") }
                && !lines.joined().unicodeScalars.contains { DemoEndToEndTests.spinner.contains($0) }
                && lines.count > 3 && lines[1...3].allSatisfy { $0.prefix(14).contains { $0 != " " && $0 != "▌" } }
        }
    }

    @Test(arguments: ["xterm-256color", "tmux-256color"])
    func colortermTruecolorDrawsIn24BitColourAndKeysAndMouseStillWork(term: String) async throws {
        let tmux = try demo(["TERM": term, "COLORTERM": "truecolor"])
        defer { tmux.close() }
        let colors = SGRColors(try await settledDemo(tmux))
        #expect(colors.rgb.count > 50, "24-bit colours in the thumbnails: \(colors.all.prefix(20))")
        // The theme's palette colours still show: the header's background is palette 24, sent as an index by
        // xterm-direct256 and as its RGB value by tmux-direct, which has no palette beyond 8.
        let header = SGRColors(try tmux.screenWithEscapes().components(separatedBy: "\n")[0])
        #expect(header.all.contains("48;5;24") || header.all.contains("48;2;0;95;135"), "\(header.all)")
        // The keys and the mouse of the terminal: xterm-direct256 has xterm's SGR mouse reports, tmux-direct tmux's
        // X10 ones (ESC [ M, button+32, column+33, row+33). Wheel down scrolls three rows.
        let x10: [UInt8] = [27, 91, 77, 65 + 32, 20 + 33, 10 + 33]
        let wheel = term.hasPrefix("xterm") ? "\u{1B}[<65;21;11M" : String(decoding: x10, as: UTF8.self)
        try tmux.type(wheel)
        try await tmux.waitFor(text: " 4 / 20")
        try tmux.send("j")
        try await tmux.waitFor(text: " 5 / 20")
    }

    @Test func aDirectColourTermDrawsIn24BitColour() async throws {
        let tmux = try demo(["TERM": "xterm-direct"])
        defer { tmux.close() }
        let colors = SGRColors(try await settledDemo(tmux))
        #expect(colors.rgb.count > 50, "\(colors.all.prefix(20))")
        #expect(colors.indexed.isEmpty, "xterm-direct has no 256 palette: \(colors.indexed)")
        // Black is nudged off colour number 0, which xterm-direct sends as the ANSI black of the user's theme.
        #expect(!colors.all.contains("38;2;0;0;0") && !colors.all.contains("48;2;0;0;0"))
    }

    @Test func withoutColortermThe256Palette() async throws {
        let tmux = try demo(["TERM": "xterm-256color"])
        defer { tmux.close() }
        let colors = SGRColors(try await settledDemo(tmux))
        #expect(colors.rgb.isEmpty, "\(colors.rgb.prefix(10))")
        #expect(colors.indexed.count > 50)
    }

    @Test func color256InATruecolorTerminalSendsNo24BitColour() async throws {
        let tmux = try demo(["TERM": "xterm-256color", "COLORTERM": "truecolor"], ["--color", "256"])
        defer { tmux.close() }
        let colors = SGRColors(try await settledDemo(tmux))
        #expect(colors.rgb.isEmpty, "\(colors.rgb.prefix(10))")
        #expect(colors.indexed.count > 50)
    }

    @Test func colorTruecolorAsksForTheDirectEntryInBrowse() async throws {
        let folder = try Self.folder(["chelsea.png", "coffee.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let tmux = try TmuxSession(["browse", folder.path, "--color", "truecolor"],
                                   environment: ["TERM": "xterm-256color", "COLORTERM": "", "NO_COLOR": ""])
        defer { tmux.close() }
        try await settledFolder(tmux)
        // Settled can mean "rows drawn, pictures not yet asked for" on a loaded machine: wait for a picture's colours.
        _ = try await tmux.waitFor("a picture in 24-bit colour") { _ in
            (try? SGRColors(tmux.screenWithEscapes()).rgb.count > 20) ?? false
        }
        let colors = SGRColors(try tmux.screenWithEscapes())
        #expect(colors.rgb.count > 20, "\(colors.all.prefix(20))")
    }

    @Test func noColorGivesAColourlessTableWithShapes() async throws {
        let tmux = try demo(["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"])
        defer { tmux.close() }
        let capture = try await settledDemo(tmux)
        let colors = SGRColors(capture)
        #expect(colors.all.isEmpty, "no colour at all: \(colors.all.prefix(20))")
        // The thumbnails are ASCII shapes, not blocks.
        let thumbnails = try tmux.screen()[1...4].map { $0.dropFirst(2).prefix(12) }.joined()
        #expect(thumbnails.unicodeScalars.allSatisfy { $0.isASCII }, "\(thumbnails)")
        #expect(thumbnails.contains { $0 != " " }, "the thumbnails are drawn")
        // The header is still told apart, by an attribute.
        #expect(capture.components(separatedBy: "\n")[0].contains("7m") || capture.contains("\u{1B}[7m"))
    }

    @Test func anExplicitColorBeatsNoColor() async throws {
        let tmux = try demo(["TERM": "xterm-256color", "NO_COLOR": "1"], ["--color", "256"])
        defer { tmux.close() }
        let colors = SGRColors(try await settledDemo(tmux))
        #expect(colors.indexed.count > 50)
    }

    /// 24-bit colour asked of a terminal without a direct-colour entry (GNU screen's TERM outside tmux): 256 colours,
    /// and the status line says why.
    @Test func withoutADirectEntryThe256PaletteAndANote() async throws {
        let tmux = try TmuxSession(DemoEndToEndTests.fastDemo + ["--color", "truecolor"], columns: 160,
                                   environment: ["TERM": "screen-256color", "TMUX": "", "NO_COLOR": ""])
        defer { tmux.close() }
        let colors = SGRColors(try await settledDemo(tmux))
        #expect(colors.rgb.isEmpty && colors.indexed.count > 50)
        try await tmux.waitFor(text: "256 colours, not 24-bit: terminfo has no direct-colour entry for "
                               + "TERM=screen-256color")
    }

    /// A grey photo (the greyscale PNGs of the demo) in an 8-colour terminal: only black and white, never yellow.
    @Test func aGreyPhotoInAnEightColourTerminalUsesOnlyGreys() async throws {
        let folder = try Self.folder(["camera.png", "coins.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let tmux = try TmuxSession(["browse", folder.path],
                                   environment: ["TERM": "xterm", "COLORTERM": "", "NO_COLOR": ""])
        defer { tmux.close() }
        try await settledFolder(tmux)
        let colors = SGRColors(try tmux.screenWithEscapes())
        let greys: Set<String> = ["30", "37", "40", "47", "90", "97", "100", "107"]
        #expect(Set(colors.all).isSubset(of: greys), "colours: \(Set(colors.all).sorted())")
        #expect(colors.all.contains("37") || colors.all.contains("47"), "the photos are drawn: \(colors.all)")
        #expect(colors.all.contains("30") || colors.all.contains("40"), "the photos are drawn: \(colors.all)")
    }

    /// A pair table smaller than the colours of a few screens (a terminfo entry made with tic, like xterm-direct256
    /// but with 300 pairs): once its numbers run out, the table starts them again and still draws every colour.
    /// The screen after paging down and back must show the colours of the same screen with 65,536 pairs.
    @Test func aFullPairTableStillDrawsTheRightColours() async throws {
        let terminfo = FileManager.default.temporaryDirectory.appendingPathComponent("tt-terminfo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: terminfo) }
        try FileManager.default.createDirectory(at: terminfo, withIntermediateDirectories: true)
        let source = terminfo.appendingPathComponent("small.src")
        try "tt-direct-small|xterm-direct256 with 300 pairs,\n\tpairs#300, use=xterm-direct256,\n"
            .write(to: source, atomically: true, encoding: .utf8)
        let (status, output) = try TmuxSession.run(["tic", "-x", "-o", terminfo.path, source.path])
        try #require(status == 0, "tic: \(output)")

        var screens: [String: [[String]]] = [:]
        var seen = Set<String>()
        for term in ["xterm-direct256", "tt-direct-small"] {
            let tmux = try demo(["TERM": term, "TERMINFO": terminfo.path])
            defer { tmux.close() }
            seen.formUnion(SGRColors(try await settledDemo(tmux)).rgb)
            for _ in 0..<3 {
                let before = try tmux.screen()[0]
                try tmux.send("PageDown")
                try await tmux.waitFor("a screen further") { lines in
                    lines[0] != before
                        && !lines.joined().unicodeScalars.contains { DemoEndToEndTests.spinner.contains($0) }
                }
                seen.formUnion(SGRColors(try tmux.screenWithEscapes()).rgb)
            }
            try tmux.send("g")
            // After g the table repaints every cell (the small table starts its pairs again), header first: the
            // screen is read once it is whole and steady.
            let steady = try await tmux.waitForSteady("the first row again") { lines in
                lines[0].contains(" 1 / ")
                    && !lines.joined().unicodeScalars.contains { DemoEndToEndTests.spinner.contains($0) }
            }
            // The rows, without the header (its count of loaded rows may differ) and the footer.
            let lines = steady.components(separatedBy: "\n")
            screens[term] = lines.dropFirst().dropLast(3).map(SGRColors.cells)
        }
        #expect(seen.count > 300, "more colours than the small table holds: \(seen.count)")
        let big = try #require(screens["xterm-direct256"]), small = try #require(screens["tt-direct-small"])
        // The rows whose thumbnails are painted in both (the last row on screen may still be loading in one).
        let painted = zip(big, small).enumerated().filter { _, rows in
            rows.0.contains { $0.contains("38;2;") } && rows.1.contains { $0.contains("38;2;") }
        }
        #expect(painted.count >= 15, "the thumbnails are in colour: \(painted.count) rows")
        for (row, (expected, actual)) in painted where expected != actual {
            let at = zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(expected.count, actual.count)
            let shown = (actual: Array(actual.dropFirst(at).prefix(6)),
                         expected: Array(expected.dropFirst(at).prefix(6)))
            Issue.record("row \(row + 1) from column \(at): \(shown.actual) instead of \(shown.expected)")
        }
    }

    // MARK: Helpers

    /// A new folder with copies of the demo's photos.
    static func folder(_ names: [String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-colour-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(at: PipelineEndToEndTests.photos.appendingPathComponent(name),
                                            to: folder.appendingPathComponent(name))
        }
        return folder
    }

    /// A folder's first screen once every row's thumbnail is drawn (glyphs left of each file's name) and the screen
    /// is steady.
    func settledFolder(_ tmux: TmuxSession) async throws {
        try await tmux.waitForSteady("the folder's thumbnails") { lines in
            // Each file's thumbnail: the cells left of its name, on its line and the four below.
            let thumbnails = lines.indices.compactMap { index -> String? in
                guard let name = lines[index].firstMatch(of: /\S+\.png/) else { return nil }
                let width = lines[index].distance(from: lines[index].startIndex, to: name.range.lowerBound)
                return lines[index..<min(lines.count, index + 5)].map { String($0.prefix(width)) }.joined()
            }
            return !thumbnails.isEmpty
                && !lines.joined().unicodeScalars.contains { DemoEndToEndTests.spinner.contains($0) }
                && thumbnails.allSatisfy { thumbnail in thumbnail.contains { $0 != " " && $0 != "▌" } }
        }
    }
}

/// The colours SGR sequences in an escaped capture set, each as its parameters: "38;2;R;G;B", "48;5;N", "31".
/// Defaults (39, 49) and attributes are left out.
struct SGRColors {
    var all: [String] = []
    var rgb: [String] { all.filter { $0.hasPrefix("38;2;") || $0.hasPrefix("48;2;") } }
    var indexed: [String] { all.filter { $0.hasPrefix("38;5;") || $0.hasPrefix("48;5;") } }

    init(_ capture: String) {
        for case .sgr(let changes) in Self.parse(capture) {
            all += changes.compactMap { $0.color.isEmpty ? nil : $0.color }
        }
    }

    /// The colours of each character of a captured line, as "FOREGROUND/BACKGROUND" ("" for the default): what
    /// the terminal shows, however the sequences that set it were split or repeated.
    static func cells(_ line: String) -> [String] {
        var fg = "", bg = "", cells: [String] = []
        for piece in parse(line) {
            switch piece {
            case .text: cells.append(fg + "/" + bg)
            case .sgr(let changes):
                for change in changes {
                    if change.background != true { fg = change.color }
                    if change.background != false { bg = change.color }
                }
            }
        }
        return cells
    }

    enum Piece {
        case text(Character)
        /// Colour changes: the new colour ("" for the default) of the foreground, the background, or both (nil).
        case sgr([(background: Bool?, color: String)])
    }

    static func parse(_ capture: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(capture)
        while let first = rest.first {
            guard rest.hasPrefix("\u{1B}[") else {
                pieces.append(.text(first))
                rest = rest.dropFirst()
                continue
            }
            let body = rest.dropFirst(2)
            guard let end = body.firstIndex(where: { !$0.isNumber && $0 != ";" && $0 != ":" }) else { break }
            if body[end] == "m" {
                pieces.append(.sgr(changes(body[..<end].split(separator: ";", omittingEmptySubsequences: false))))
            }
            rest = body[body.index(after: end)...]
        }
        return pieces
    }

    private static func changes(_ parameters: [Substring]) -> [(background: Bool?, color: String)] {
        var changes: [(background: Bool?, color: String)] = []
        var i = 0
        while i < parameters.count {
            let p = Int(parameters[i]) ?? 0
            if (p == 38 || p == 48), i + 1 < parameters.count {
                let count = parameters[i + 1] == "5" ? 3 : parameters[i + 1] == "2" ? 5 : 2
                changes.append((p == 48, parameters[i..<min(i + count, parameters.count)].joined(separator: ";")))
                i += count
                continue
            }
            switch p {
            case 0: changes.append((nil, ""))
            case 39: changes.append((false, ""))
            case 49: changes.append((true, ""))
            case 30...37, 90...97: changes.append((false, String(p)))
            case 40...47, 100...107: changes.append((true, String(p)))
            default: break
            }
            i += 1
        }
        return changes
    }
}
