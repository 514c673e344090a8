import Foundation
import TestSupport
import Testing

/// `thumbtable pick` as a script runs it, in a tmux shell: `… | thumbtable pick … > OUT; echo $? > STATUS`. Each way
/// out is checked by the bytes of OUT and the exit status: Enter, marks, NUL ends, Esc, an empty input, a lone match,
/// a JSON key, no terminal; and nothing but the choice reaches stdout.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct PickEndToEndTests {
    /// A folder of three photos, one with a name that is not UTF-8 (`caf\xE9.png`), and the file listing them.
    struct Scratch {
        let folder: URL
        var out: String { folder.path + "/out" }
        var status: String { folder.path + "/status" }
        var err: String { folder.path + "/err" }
        var list: String { folder.path + "/list" }
        static let cafe = Array("caf".utf8) + [0xE9] + Array(".png".utf8)

        init() throws {
            folder = try ColorEndToEndTests.folder(["chelsea.png", "coffee.png", "astronaut.png"])
            // The name that is not UTF-8 is given to rename(2) as bytes: Foundation would re-encode it.
            try FileManager.default.copyItem(atPath: folder.path + "/coffee.png", toPath: folder.path + "/x")
            let target = (Array(folder.path.utf8) + [UInt8(ascii: "/")] + Self.cafe + [0]).map { CChar(bitPattern: $0) }
            guard rename(folder.path + "/x", target) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: folder.path])
            }
        }

        /// The listing in this order, a name a line, as the bytes a pipe would carry.
        func writeList(_ names: [[UInt8]]) throws {
            try Data(names.flatMap { Array(folder.path.utf8) + [UInt8(ascii: "/")] + $0 + [10] })
                .write(to: URL(fileURLWithPath: list))
        }

        func path(_ name: [UInt8]) -> [UInt8] { Array(folder.path.utf8) + [UInt8(ascii: "/")] + name }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    static let names: [[UInt8]] = [Array("astronaut.png".utf8), Scratch.cafe, Array("chelsea.png".utf8),
                                   Array("coffee.png".utf8)]

    /// Runs `shellLine` (CMD standing for thumbtable and its arguments) in a tmux shell, and returns the session once
    /// the picker's list shows.
    static func start(_ arguments: [String], _ shellLine: String, in scratch: Scratch,
                      showing text: String? = "chelsea.png",
                      environment: [String: String] = [:]) async throws -> TmuxSession {
        let tmux = try TmuxSession(interactiveShellColumns: 100, rows: 30)
        try await tmux.waitFor(text: "$")
        let command = try TmuxSession.commandLine(arguments, environment: environment)
        let line = shellLine.replacingOccurrences(of: "CMD", with: command)
            .replacingOccurrences(of: "OUT", with: scratch.out).replacingOccurrences(of: "LIST", with: scratch.list)
            .replacingOccurrences(of: "ERR", with: scratch.err)
            + "; echo $? > \(scratch.status).part; mv \(scratch.status).part \(scratch.status)"
        try tmux.type(line)
        try tmux.send("Enter")
        if let text { try await tmux.waitFor(text: text) }
        return tmux
    }

    static func ended(_ scratch: Scratch, _ tmux: TmuxSession) async throws -> (status: String, out: [UInt8]) {
        let status = try await ControllingTerminalEndToEndTests.contents(of: scratch.status, in: tmux)
        let out = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: scratch.out))) ?? Data())
        return (status.trimmingCharacters(in: .whitespacesAndNewlines), out)
    }

    @Test func enterPrintsTheChosenLineByteForByte() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.writeList(Self.names)
        let tmux = try await Self.start(["pick"], "cat LIST | CMD > OUT", in: scratch)
        defer { tmux.close() }
        try tmux.send("j")
        try await tmux.waitFor(text: " 2 / 4")
        try tmux.send("Enter")
        let (status, out) = try await Self.ended(scratch, tmux)
        #expect(status == "0")
        #expect(out == scratch.path(Scratch.cafe) + [10], "\(String(decoding: out, as: UTF8.self))")
        try SignalEndToEndTests().expectRestored(tmux)
    }

    @Test func multiMarksAndPrint0EndsEachWithNUL() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.writeList(Self.names)
        let tmux = try await Self.start(["pick", "--multi", "--print0"], "CMD < LIST > OUT", in: scratch)
        defer { tmux.close() }
        // Tab marks astronaut and moves on; j; Tab marks chelsea.
        try tmux.send("Tab")
        try await tmux.waitFor(text: "1 marked")
        try tmux.send("j")
        try tmux.send("Tab")
        let screen = try await tmux.waitFor(text: "2 marked")
        #expect(screen.contains { $0.hasPrefix(" ●") }, "a mark in the gutter:\n\(screen.joined(separator: "\n"))")
        try tmux.send("Enter")
        let (status, out) = try await Self.ended(scratch, tmux)
        #expect(status == "0")
        #expect(out == scratch.path(Self.names[0]) + [0] + scratch.path(Self.names[2]) + [0])
    }

    @Test(arguments: ["Escape", "q", "C-c"])
    func escQAndCtrlCPrintNothingAndExit130(key: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.writeList(Self.names)
        let tmux = try await Self.start(["pick"], "CMD < LIST > OUT", in: scratch)
        defer { tmux.close() }
        try tmux.send(key)
        let (status, out) = try await Self.ended(scratch, tmux)
        #expect(status == "130")
        #expect(out.isEmpty)
        try SignalEndToEndTests().expectRestored(tmux)
    }

    @Test func anEmptyInputSaysSoAndExits1() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let tmux = try await Self.start(["pick"], "CMD < /dev/null > OUT 2> ERR", in: scratch, showing: nil)
        defer { tmux.close() }
        let (status, out) = try await Self.ended(scratch, tmux)
        #expect(status == "1")
        #expect(out.isEmpty)
        #expect(try String(contentsOfFile: scratch.err, encoding: .utf8).contains("nothing to pick from"))
    }

    /// `--query` starts filtered, and `--select-1` picks the one match as soon as the input is whole: no key.
    @Test func aLoneMatchIsPickedAtOnceWithSelect1() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.writeList(Self.names)
        let tmux = try await Self.start(["pick", "--query", "coffee", "--select-1"], "CMD < LIST > OUT",
                                        in: scratch, showing: nil)
        defer { tmux.close() }
        let (status, out) = try await Self.ended(scratch, tmux)
        #expect(status == "0")
        #expect(out == scratch.path(Self.names[3]) + [10])
    }

    /// JSON lines with `--print-key`: the value of the chosen line, not the line; `--layout grid` works as in browse.
    @Test func printKeyPrintsTheChosenJSONValue() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Data(#"""
            {"name": "first", "id": 1}
            {"name": "second", "id": "two"}

            """#.utf8).write(to: URL(fileURLWithPath: scratch.list))
        let tmux = try await Self.start(["pick", "--json", "--title", "name", "--print-key", "id", "--layout", "grid"],
                                        "CMD < LIST > OUT", in: scratch, showing: "second")
        defer { tmux.close() }
        try tmux.send("Right")
        try tmux.send("Enter")
        let (status, out) = try await Self.ended(scratch, tmux)
        #expect(status == "0")
        #expect(out == Array("two\n".utf8))
    }

    /// The config file's display settings apply to `pick` as to `browse`, and the command line wins: with `layout =
    /// "grid"` the grid shows (Right moves to the second picture), with `--layout list` the list (Right opens the
    /// first row's pane, whose Enter picks it).
    @Test(arguments: [([String](), 1), (["--layout", "list"], 0)])
    func theConfigFilesLayoutAppliesAndTheCommandLineWins(given: [String], picked: Int) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.writeList(Self.names)
        let config = scratch.folder.appendingPathComponent("config/thumbtable")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "layout = \"grid\"\n".write(to: config.appendingPathComponent("config.toml"), atomically: true,
                                          encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": scratch.folder.appendingPathComponent("config").path]
        let tmux = try await Self.start(["pick"] + given, "CMD < LIST > OUT", in: scratch,
                                        showing: " 1 / 4", environment: environment)
        defer { tmux.close() }
        try tmux.send("Right")
        if given.isEmpty { try await tmux.waitFor(text: " 2 / 4") }
        try tmux.send("Enter")
        let (status, out) = try await Self.ended(scratch, tmux)
        #expect(status == "0")
        #expect(out == scratch.path(Self.names[picked]) + [10], "\(String(decoding: out, as: UTF8.self))")
    }

    /// JSON lines that are not JSON are skipped: the status line counts them while the list shows the rest, and
    /// stderr says how many once the terminal is given back; the choice is the line picked among those kept.
    @Test func linesThatAreNotJSONAreSkippedAndCountedOnTheScreenAndOnStderr() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Data(#"""
            {"name": "first"}
            not json {
            {"name": "second"}
            \#u{1B}[31mgarbage

            """#.utf8).write(to: URL(fileURLWithPath: scratch.list))
        let tmux = try await Self.start(["pick", "--json", "--title", "name"], "CMD < LIST > OUT 2> ERR",
                                        in: scratch, showing: "2 lines not JSON, skipped")
        defer { tmux.close() }
        let screen = try await tmux.waitFor(text: "second")
        #expect(!screen.contains { $0.contains("not json") || $0.contains("garbage") },
                "\(screen.joined(separator: "\n"))")
        try tmux.send("j")
        try await tmux.waitFor(text: " 2 / 2")
        try tmux.send("Enter")
        let (status, out) = try await Self.ended(scratch, tmux)
        #expect(status == "0")
        #expect(out == Array(#"{"name": "second"}"#.utf8) + [10])
        #expect(try String(contentsOfFile: scratch.err, encoding: .utf8) == "thumbtable: 2 lines not JSON, skipped\n")
    }

    /// Without a terminal (a new session: no /dev/tty) the picker says so and exits 2.
    @Test func noTerminalExits2() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.writeList(Self.names)
        let tmux = try await Self.start(["pick"], "setsid -w CMD < LIST > OUT 2> ERR", in: scratch, showing: nil)
        defer { tmux.close() }
        let (status, out) = try await Self.ended(scratch, tmux)
        #expect(status == "2")
        #expect(out.isEmpty)
        #expect(try String(contentsOfFile: scratch.err, encoding: .utf8).contains("needs a terminal"))
    }
}
