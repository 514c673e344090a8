import ArgumentParser
import FoundationEssentials
import Table

/// Options for what the user takes out of the table (`w` and `W` save into `--save-dir`) and how far a filter reads
/// without a match; shared by every browsing command through `DisplayOptions`.
struct SaveAndFilterOptions: ParsableArguments {
    /// The largest `--filter-read-limit`: a million rows is more than any list a screen is used for.
    static let maxFilterReadLimit = 1_000_000

    // Optional, so the help says the default once, in words: with `= "."` ArgumentParser added "(default: .)".
    @Option(help: "The folder w and W save images and pictures into (default: the current folder).")
    var saveDir: String?

    @Option(parsing: .unconditional,
            help: "Rows a filter (/) reads without a match before it stops loading pages (1 to \(Self.maxFilterReadLimit)); Enter on the last row reads as many more.")
    var filterReadLimit = ListState.defaultFilterReadLimit

    /// `--save-dir` with a leading `~/` made the home folder: the shell expands it on the command line, but not in
    /// the config file.
    var saveFolder: String {
        BrowseCommand.expandingTilde(saveDir ?? ".")
    }

    func validate() throws {
        try Ceiling.check(filterReadLimit, "--filter-read-limit", in: 1...Self.maxFilterReadLimit)
        if saveDir?.isEmpty == true { throw ValidationError("--save-dir needs a folder; '.' is the current one") }
    }
}
