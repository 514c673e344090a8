import App
import FoundationEssentials
import Glibc
import Items
import Table

/// A browsing session that picks (`thumbtable pick`, `--pick`): starts the table with `--query`'s filter, ends the
/// run when the input held nothing, or held one match under `--select-1`, and once the terminal is given back
/// prints the choice to stdout (`PickOutput`) and says on stderr what it could not.
@MainActor
final class PickSession {
    private let options: PickOptions
    private let output: PickOutput
    private unowned let app: App
    /// Why the run ended without a choice, said on stderr after the terminal is restored.
    private var ending: String?

    /// The status of a run ended with nothing to pick from.
    static let nothingStatus: Int32 = 1

    init(options: PickOptions, key: String?, app: App) {
        self.options = options
        output = PickOutput(print0: options.print0, key: key)
        self.app = app
        if let query = options.query, !query.isEmpty {
            app.table.beginFilter()
            for character in query { app.table.editFilter(appending: character) }
            app.table.endFilterEditing()
        }
    }

    /// After each update (`App.afterUpdate`): once the whole list is in, an empty one ends the run, and
    /// `--select-1` picks a lone match.
    func look() {
        let table = app.table
        guard case .end = table.listStatus else { return }
        if table.items.isEmpty {
            ending = "nothing to pick from: the input held no items"
            app.quit(status: Self.nothingStatus)
        } else if options.selectOne, table.itemCount == 1, let index = table.itemIndex(forRow: 0) {
            app.pick([table.items[index]])
        }
    }

    /// Prints the choice (on a run that ended with one) and returns the status to exit with: 1 when stdout could
    /// not take it, or when a chosen item had nothing to print.
    func finish(status: Int32, localFiles: Bool) -> Int32 {
        if let ending {
            Messages.error(ending)
            return status
        }
        guard status == 0, !app.picked.isEmpty else { return status }
        let (bytes, missing) = output.bytes(for: app.picked, localFiles: localFiles)
        var status = status
        if !missing.isEmpty, let key = output.key {
            Messages.error("\(missing.count) of the items chosen have no \(key) to print: "
                           + missing.prefix(3).joined(separator: ", "))
            status = 1
        }
        do {
            try StandardStreams.write(bytes, to: STDOUT_FILENO)
        } catch {
            Messages.error("the choice could not be written to stdout: \(error)")
            return 1
        }
        return status
    }
}
