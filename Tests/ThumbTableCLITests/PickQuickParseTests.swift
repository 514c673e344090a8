import ArgumentParser
import Glibc
import Testing
@testable import ThumbTableCLI

/// `pick` parsed as a command of its own gives the command the root's parse gives, and gives up on help and mistakes
/// (which the root's parse then says in its words).
@Suite struct PickQuickParseTests {
    /// Every property of a command with its value, option groups included.
    func values(_ command: PickCommand) -> String {
        String(describing: command)
    }

    @Test(arguments: [
        [], ["--graphics", "text", "--no-disk-cache"], ["--multi", "--print0", "--query", "a b", "--select-1"],
        ["--json", "--title", "name", "--image", "url", "--print-key", "id", "--layout", "grid"],
        ["--items", "data", "--thumb-size=20x10", "--color", "256"],
    ])
    func givesTheCommandTheRootsParseGives(_ arguments: [String]) throws {
        // `pick` refuses a terminal on stdin (it reads its items there): both parses fail then.
        guard isatty(STDIN_FILENO) == 0 else {
            #expect(PickCommand.parsedAlone(arguments) == nil)
            return
        }
        let alone = try #require(PickCommand.parsedAlone(arguments))
        let root = try #require(try ThumbTableCommand.parseAsRoot(["pick"] + arguments) as? PickCommand)
        #expect(values(alone) == values(root))
    }

    @Test(arguments: [["--help"], ["-h"], ["--bogus"], ["--subtitle", "x"], ["--layout", "sideways"],
                      ["--items", "a", "--print-key", "b"], ["--layout"]])
    func leavesHelpAndMistakesToTheRootsParse(_ arguments: [String]) {
        #expect(PickCommand.parsedAlone(arguments) == nil)
    }
}
