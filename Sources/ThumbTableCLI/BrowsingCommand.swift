import ArgumentParser
import Items

/// A command that browses one item source with the display options every browsing command shares: it says which
/// source, and `run()` is the same for all of them.
protocol BrowsingCommand: AsyncParsableCommand {
    var display: DisplayOptions { get }

    /// The source the command's own options name (already checked by `validate()`); errors are messages for the user.
    func source() throws -> any ItemSource
}

extension BrowsingCommand {
    @MainActor
    func run() async throws {
        try await BrowsingSession(options: display).run(source: try source())
    }
}
