import Foundation
import Testing
@testable import ThumbTableCLI

/// A first argument that is not a command gets the nearest command, not the demo's usage.
@Suite struct CommandSuggestionTests {
    let commands = ThumbTableCommand.commandNames

    @Test(arguments: [("brwse", "browse"), ("borwse", "browse"), ("BROWSE", "browse"), ("rendr", "render"),
                      ("chache", "cache"), ("flikr", "flickr"), ("swpai", "swapi"), ("phots", "photos"),
                      ("serve", "serve-demo"), ("servedemo", "serve-demo"), ("dmeo", "demo"), ("pikc", "pick")])
    func aTypoGetsTheNearestCommand(_ typo: String, _ command: String) throws {
        #expect(CommandSuggestion.nearest(to: typo, among: commands) == command)
        let message = try #require(CommandSuggestion.mistake(in: [typo, "--size", "3x3"], commands: commands))
        #expect(message.hasPrefix("'\(typo)' is not a command; did you mean '\(command)'?"))
    }

    @Test(arguments: ["xyz", "q", "thumbnails", "renderer-of-everything"])
    func aWordNearNoCommandGetsTheList(_ word: String) throws {
        #expect(CommandSuggestion.nearest(to: word, among: commands) == nil)
        let message = try #require(CommandSuggestion.mistake(in: [word], commands: commands))
        #expect(message == "'\(word)' is not a command. The commands are demo, swapi, photos, browse, flickr, "
                + "serve-demo, render, cache, pick (thumbtable --help says what each does).")
    }

    @Test(arguments: [[], ["--latency", "0", "--jitter", "0"], ["-h"], ["browse", "brwse"], ["help", "render"],
                      ["demo", "--port", "0"], ["render", "x.png"]])
    func argumentsForArgumentParserAreLeftAlone(_ arguments: [String]) {
        #expect(CommandSuggestion.mistake(in: arguments, commands: commands) == nil)
    }

    /// A folder, a file or a URL is run as the command that shows it (`thumbtable PATH`); a command's name wins.
    @Test func aFolderAFileOrAURLIsRunAsTheCommandThatShowsIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-suggest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.png")
        try Data([1, 2, 3]).write(to: file)
        #expect(PathArgument.arguments([folder.path, "--recursive"], commands: commands)
                == ["browse", folder.path, "--recursive"])
        #expect(PathArgument.arguments([file.path, "--size", "8x4"], commands: commands, stdoutIsTerminal: false)
                == ["render", file.path, "--size", "8x4"])
        #expect(PathArgument.arguments([file.path], commands: commands, stdoutIsTerminal: true) == ["browse", file.path])
        #expect(PathArgument.arguments(["https://api.example/x", "--title", "name"], commands: commands)
                == ["browse", "https://api.example/x", "--title", "name"])
        for arguments in [["demo"], ["--color", "none"], ["help"], ["/no/such/thing"], ["ftp://h/x"], []] {
            #expect(PathArgument.arguments(arguments, commands: commands) == nil, "\(arguments)")
        }
        // A folder named like a command is reached by a path to it (./demo): the bare name is the command.
        let named = folder.appendingPathComponent("demo").path
        try FileManager.default.createDirectory(atPath: named, withIntermediateDirectories: true)
        #expect(PathArgument.arguments([named], commands: commands) == ["browse", named])
    }

    @Test(arguments: [("", "", 0), ("a", "", 1), ("kitten", "sitting", 3), ("ab", "ba", 1), ("abc", "ca", 3),
                      ("browse", "browse", 0)])
    func editDistanceCountsInsertsDeletesReplacesAndSwaps(_ a: String, _ b: String, _ expected: Int) {
        #expect(CommandSuggestion.editDistance(a, b) == expected)
        #expect(CommandSuggestion.editDistance(b, a) == expected)
    }
}
