import ArgumentParser
import Foundation
import Testing
@testable import ThumbTableCLI

/// `browse`'s quick parser never disagrees with ArgumentParser: it knows the same options, gives the command the
/// root's parse gives, or gives up (help, mistakes, a folder that is not there), leaving the root's parse to say why.
@Suite struct BrowseQuickParseTests {
    /// A folder that is there.
    static let folder = FileManager.default.temporaryDirectory.path
    static let api = "https://example.com/api?page=1"

    /// For every option of `browse` and its groups, arguments that give it (with what it needs beside it to
    /// validate). The display options' are `pick`'s cases after a folder.
    static let eachOption: [String: [String]] = {
        var cases = PickQuickParseTests.eachOption.filter { !PickCommand.quickOptions.map(\.name).contains($0.key) }
            .mapValues { [folder] + $0 }
        let own: [String: [String]] = [
            "recursive": [folder, "--recursive"], "items": [api, "--title", "t", "--items", "data.results"],
            "title": [api, "--title", "name"], "subtitle": [api, "--title", "t", "--subtitle", "s"],
            "image": [api, "--title", "t", "--image", "u"], "thumb": [api, "--title", "t", "--thumb", "u"],
            "next": [api, "--title", "t", "--next", "n"], "page-param": [api, "--title", "t", "--page-param", "_p"],
            "limit-param": [api, "--title", "t", "--limit-param", "_l"], "limit": [api, "--title", "t", "--limit", "5"],
            "items-from": ["--items-from", "/dev/null"],
        ]
        cases.merge(own) { first, _ in first }
        return cases
    }()

    /// Argument lists it takes, beyond one option at a time.
    static let taken: [[String]] = [
        [], [folder], ["--print", folder, "--layout", "grid", "--print-size=120x30", "--graphics", "text"],
        [api, "--title", "name", "--color=none", "--pick", "--multi"], ["--recursive", "--mode", "braille", folder],
    ]

    /// Argument lists it leaves to ArgumentParser: help, mistakes, forms it does not handle.
    static let leftAlone: [[String]] = [
        ["--help"], ["-h"], [folder, "--bogus"], [folder, folder], ["/no/such/folder"], [api], [api, "--title"],
        [api, "--title", "t", "--limit", "0"], ["--", folder], ["-"], [folder, "-r"],
        [folder, "--print-size", "9x9"],
        [folder, "--layout", "grid", "--layout", "list"], [folder, "--recursive=no"],
    ]

    func expectSameCommand(_ arguments: [String]) throws {
        let quick = try #require(BrowseCommand(quickParsing: arguments), "\(arguments)")
        let root = try #require(try ThumbTableCommand.parseAsRoot(["browse"] + arguments) as? BrowseCommand)
        #expect(QuickParseAgreement.values(quick) == QuickParseAgreement.values(root))
        #expect(!QuickParseAgreement.values(quick).contains("*definition*"))
    }

    @Test(arguments: eachOption.sorted { $0.key < $1.key })
    func readsEachOptionAsArgumentParserDoes(_ option: (key: String, value: [String])) throws {
        try expectSameCommand(option.value)
    }

    @Test(arguments: taken)
    func takesWhatArgumentParserTakesTheSameWay(_ arguments: [String]) throws {
        try expectSameCommand(arguments)
    }

    @Test(arguments: leftAlone)
    func leavesHelpAndMistakesToArgumentParser(_ arguments: [String]) {
        #expect(BrowseCommand(quickParsing: arguments) == nil)
    }

    /// The quick parser's names are the options ArgumentParser finds in `browse` and its groups, flags as flags, and
    /// each has its case above.
    @Test func knowsExactlyTheOptionsArgumentParserFinds() throws {
        try QuickParseAgreement.expectKnowsTheDeclaredOptions(of: BrowseCommand.self, own: BrowseCommand.quickOptions,
                                                              cases: Self.eachOption, atLeast: 40)
    }
}
