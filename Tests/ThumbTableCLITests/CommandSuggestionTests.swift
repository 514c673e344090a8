import Foundation
import Testing
@testable import ThumbTableCLI

/// A first argument that is not a command gets the nearest command, not the demo's usage.
@Suite struct CommandSuggestionTests {
    let commands = ThumbTableCommand.commandNames

    @Test(arguments: [("brwse", "browse"), ("borwse", "browse"), ("BROWSE", "browse"), ("rendr", "render"),
                      ("chache", "cache"), ("flikr", "flickr"), ("swpai", "swapi"), ("phots", "photos"),
                      ("serve", "serve-demo"), ("servedemo", "serve-demo"), ("dmeo", "demo")])
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
                + "serve-demo, render, cache (thumbtable --help says what each does).")
    }

    @Test(arguments: [[], ["--latency", "0", "--jitter", "0"], ["-h"], ["browse", "brwse"], ["help", "render"],
                      ["demo", "--port", "0"], ["render", "x.png"]])
    func argumentsForArgumentParserAreLeftAlone(_ arguments: [String]) {
        #expect(CommandSuggestion.mistake(in: arguments, commands: commands) == nil)
    }

    @Test func aFolderOrAFileIsShownTheCommandForIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-suggest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.png")
        try Data([1, 2, 3]).write(to: file)
        #expect(CommandSuggestion.mistake(in: [folder.path], commands: commands)
                == "'\(folder.path)' is not a command; to show it: thumbtable browse '\(folder.path)'")
        #expect(CommandSuggestion.mistake(in: [file.path], commands: commands)
                == "'\(file.path)' is not a command; to show it: thumbtable render '\(file.path)'")
    }

    @Test(arguments: [("", "", 0), ("a", "", 1), ("kitten", "sitting", 3), ("ab", "ba", 1), ("abc", "ca", 3),
                      ("browse", "browse", 0)])
    func editDistanceCountsInsertsDeletesReplacesAndSwaps(_ a: String, _ b: String, _ expected: Int) {
        #expect(CommandSuggestion.editDistance(a, b) == expected)
        #expect(CommandSuggestion.editDistance(b, a) == expected)
    }
}
