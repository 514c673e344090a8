import ArgumentParser
import Glibc
import Testing
@testable import ThumbTableCLI

/// `pick`'s quick parser never disagrees with ArgumentParser: it knows the same options, gives the command the root's
/// parse gives (and the parse of `pick` alone), or gives up on help and mistakes, which the root's parse then says in
/// its words.
@Suite struct PickQuickParseTests {
    /// For every option of `pick` and its groups, arguments that give it (with what it needs beside it to validate).
    static let eachOption: [String: [String]] = [
        "json": ["--json"], "items": ["--items", "data"], "title": ["--title", "name"],
        "subtitle": ["--json", "--subtitle", "s"], "image": ["--json", "--image", "url"],
        "thumb": ["--json", "--thumb", "small"], "print-key": ["--json", "--print-key", "id"],
        "thumb-size": ["--thumb-size", "20x10"], "mode": ["--mode", "ascii"], "layout": ["--layout", "grid"],
        "color": ["--color", "256"], "graphics": ["--graphics", "text"], "memory-cache-mb": ["--memory-cache-mb", "0"],
        "cache-dir": ["--cache-dir", "/tmp/c d"], "no-disk-cache": ["--no-disk-cache"],
        "disk-cache-mb": ["--disk-cache-mb", "1"], "stats-file": ["--stats-file", "s.json"],
        "low-data": ["--low-data"], "max-downloads": ["--max-downloads", "2"],
        "max-downloads-per-host": ["--max-downloads-per-host", "1"], "timeout": ["--timeout", "2.5"],
        "stall-timeout": ["--stall-timeout", "0.5"], "max-image-mb": ["--max-image-mb", "1"],
        "no-prefetch": ["--no-prefetch"], "reuse-overlay": ["--reuse-overlay"], "print": ["--print"],
        "print-size": ["--print", "--print-size", "80x24"], "print-timeout": ["--print", "--print-timeout", "1"],
        "pick": ["--pick"], "multi": ["--multi"], "print0": ["--print0"], "query": ["--query", "a"],
        "select-1": ["--select-1"], "memory-limit": ["--memory-limit", "512"], "save-dir": ["--save-dir", "~/x"],
        "filter-read-limit": ["--filter-read-limit", "7"],
    ]

    /// Argument lists it takes, beyond one option at a time.
    static let taken: [[String]] = [
        [], ["--graphics", "text", "--no-disk-cache"], ["--multi", "--print0", "--query", "a b", "--select-1"],
        ["--json", "--title", "name", "--image", "url", "--print-key", "id", "--layout", "grid"],
        ["--items", "data", "--thumb-size=20x10", "--color", "256"], ["--query=-x", "--layout=grid"],
    ]

    /// Argument lists it leaves to ArgumentParser: help, mistakes, forms it does not handle.
    static let leftAlone: [[String]] = [
        ["--help"], ["-h"], ["help"], ["--bogus"], ["--subtitle", "x"], ["--layout", "sideways"],
        ["--items", "a", "--print-key", "b"], ["--layout"], ["--query", "-x"], ["--multi=yes"], ["stray"],
        ["--layout", "grid", "--layout", "list"], ["--", "--multi"], ["-"], ["--max-downloads", "0"],
        ["--timeout", "-1"], ["--print-size", "80x24"], ["--thumb-size", "big"], ["--save-dir", ""],
        // An empty value is a missing one to ArgumentParser.
        ["--query", ""], ["--title="],
    ]

    /// The root's parse of `pick` with these arguments, and the parse of `pick` alone, which must agree.
    func argumentParsers(_ arguments: [String]) throws -> PickCommand {
        let root = try #require(try ThumbTableCommand.parseAsRoot(["pick"] + arguments) as? PickCommand)
        let alone = try #require(PickCommand.parsedAlone(arguments))
        #expect(QuickParseAgreement.values(alone) == QuickParseAgreement.values(root))
        return root
    }

    func expectSameCommand(_ arguments: [String]) throws {
        // `pick` refuses a terminal on stdin (it reads its items there): every parse fails then.
        guard isatty(STDIN_FILENO) == 0 else {
            #expect(PickCommand(quickParsing: arguments) == nil)
            return
        }
        let quick = try #require(PickCommand(quickParsing: arguments), "\(arguments)")
        #expect(QuickParseAgreement.values(quick) == QuickParseAgreement.values(try argumentParsers(arguments)))
        #expect(!QuickParseAgreement.values(quick).contains("*definition*"))
    }

    @Test(arguments: eachOption.sorted { $0.key < $1.key })
    func readsEachOptionAsArgumentParserDoes(_ option: (key: String, value: [String])) throws {
        try expectSameCommand(option.value)
        // The same with the value joined on: `--name=value`.
        let given = option.value
        if given.count >= 2, !given[given.count - 1].hasPrefix("--") {
            try expectSameCommand(given.dropLast(2) + ["\(given[given.count - 2])=\(given[given.count - 1])"])
        }
    }

    @Test(arguments: taken)
    func takesWhatArgumentParserTakesTheSameWay(_ arguments: [String]) throws {
        try expectSameCommand(arguments)
    }

    @Test(arguments: leftAlone)
    func leavesHelpAndMistakesToArgumentParser(_ arguments: [String]) {
        #expect(PickCommand(quickParsing: arguments) == nil)
    }

    /// The quick parser's names are the options ArgumentParser finds in `pick` and its groups, flags as flags, and
    /// each has its case above: an option added to the command and not here fails, not only by going the slow way.
    @Test func knowsExactlyTheOptionsArgumentParserFinds() throws {
        try QuickParseAgreement.expectKnowsTheDeclaredOptions(of: PickCommand.self, own: PickCommand.quickOptions,
                                                              cases: Self.eachOption, atLeast: 35)
    }
}
