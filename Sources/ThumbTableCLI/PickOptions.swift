import ArgumentParser
import Table

/// Choosing items for a script, shared by every browsing command (`--pick`) and implied by `thumbtable pick`: Enter
/// prints the choice to stdout once the terminal is given back.
struct PickOptions: ParsableArguments {
    @Flag(help: "Pick: Enter prints the selected item to stdout and ends (status 0); Esc, q or Ctrl-C end with 130.")
    var pick = false

    @Flag(help: "With --pick: Tab (Space in the grid) marks items; Enter prints the marked ones in list order.")
    var multi = false

    @Flag(help: "With --pick: end each item printed with a NUL byte instead of a newline (for xargs -0).")
    var print0 = false

    @Option(help: "With --pick: start with this filter.")
    var query: String?

    @Flag(name: .customLong("select-1"),
          help: "With --pick: when exactly one item matches once the list is whole, pick it without asking.")
    var selectOne = false

    /// The table's picking, when picking (`implied`: the `pick` command).
    func picking(implied: Bool = false) -> Picking? {
        pick || implied ? Picking(multi: multi) : nil
    }

    /// Refuses the picking options without `--pick` (or the `pick` command, which implies it).
    func check(implied: Bool = false) throws {
        guard !pick, !implied else { return }
        let given = [(multi, "--multi"), (print0, "--print0"), (query != nil, "--query"), (selectOne, "--select-1")]
        if let (_, name) = given.first(where: \.0) {
            throw ValidationError("\(name) goes with --pick (or thumbtable pick)")
        }
    }
}
