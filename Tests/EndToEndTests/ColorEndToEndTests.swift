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
    func settledDemo(_ tmux: TmuxSession) async throws -> String {
        try await tmux.waitFor("the first rows with thumbnails") { lines in
            lines.first?.contains("row 1 of 20 loaded") == true && lines.contains { $0.contains("Human") }
                && !lines.joined().unicodeScalars.contains { DemoEndToEndTests.spinner.contains($0) }
        }
        return try tmux.screenWithEscapes()
    }

    @Test(arguments: ["xterm-256color", "tmux-256color"])
    func colortermTruecolorDrawsIn24BitColourAndKeysStillWork(term: String) async throws {
        let tmux = try demo(["TERM": term, "COLORTERM": "truecolor"])
        defer { tmux.close() }
        let colors = SGRColors(try await settledDemo(tmux))
        #expect(colors.rgb.count > 50, "24-bit colours in the thumbnails: \(colors.all.prefix(20))")
        // The theme's palette colours still show: the header's background is palette 24, sent as an index by
        // xterm-direct256 and as its RGB value by tmux-direct, which has no palette beyond 8.
        let header = SGRColors(try tmux.screenWithEscapes().components(separatedBy: "\n")[0])
        #expect(header.all.contains("48;5;24") || header.all.contains("48;2;0;95;135"), "\(header.all)")
        try tmux.send("j")
        try await tmux.waitFor(text: "row 2 of 20 loaded")
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

    func settledFolder(_ tmux: TmuxSession) async throws {
        try await tmux.waitFor("the folder's thumbnails") { lines in
            lines.contains { $0.contains(".png") }
                && !lines.joined().unicodeScalars.contains { DemoEndToEndTests.spinner.contains($0) }
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
        var rest = Substring(capture)
        while let start = rest.range(of: "\u{1B}[") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(where: { !$0.isNumber && $0 != ";" && $0 != ":" }) else { break }
            if rest[end] == "m" { read(rest[..<end].split(separator: ";", omittingEmptySubsequences: false)) }
            rest = rest[end...]
        }
    }

    private mutating func read(_ parameters: [Substring]) {
        var i = 0
        while i < parameters.count {
            let p = Int(parameters[i]) ?? 0
            if (p == 38 || p == 48), i + 1 < parameters.count {
                let count = parameters[i + 1] == "5" ? 3 : parameters[i + 1] == "2" ? 5 : 2
                all.append(parameters[i..<min(i + count, parameters.count)].joined(separator: ";"))
                i += count
                continue
            }
            if (30...37).contains(p) || (40...47).contains(p) || (90...97).contains(p) || (100...107).contains(p) {
                all.append(String(p))
            }
            i += 1
        }
    }
}
