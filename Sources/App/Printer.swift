import Cells
import FoundationEssentials
import Glibc
import Items
import Table

/// The headless counterpart of `App`: the same table, laid out at a given size with no terminal, run until its
/// screen settles (every thumbnail on screen loaded or failed, the pages it needs arrived) or a deadline passes; then
/// it hands back the frame the table composes, for the print mode to write to stdout.
///
/// Nothing polls: each change the table signals (a page, a thumbnail) runs one `update()` and one look at
/// `isSettled`, as each change makes `App` draw one frame.
@MainActor
public final class Printer {
    public let table: TableController
    /// The screen printed, without the status line (see `init`).
    public let size: CellSize
    private var changed = false
    private var timedOut = false
    private var waiter: CheckedContinuation<Void, Never>?

    /// What a run printed and how it ended.
    public struct Result {
        /// The screen: the header, the rows, the footer with the attribution.
        public var screen: CellBuffer
        /// False when the deadline passed first: some thumbnails or a page were still loading.
        public var settled: Bool
    }

    /// Builds the table at `size`. The table is laid out one line taller and its last line, the status line, is
    /// left out of the print: its key hints mean nothing in a pipe, and what it would say of a failure the print mode
    /// says on stderr. So the print is `size.rows` lines: header, rows, and the footer at the bottom.
    public init(source: any ItemSource, configuration: TableController.Configuration, size: CellSize,
                loader: any ThumbnailLoading) {
        self.size = size
        table = TableController(source: source, loader: loader, configuration: configuration)
        table.resize(columns: size.columns, rows: size.rows + 1)
    }

    /// Whether the locale's characters are UTF-8, as `Terminal` decides for the table; also what the table's text
    /// escaping (`TerminalText`) goes by. Without it, thumbnails and text are drawn in ASCII.
    public static func setUpLocale() -> Bool {
        setlocale(LC_CTYPE, "")
        let codeset = String(cString: nl_langinfo(Int32(CODESET)))
        let unicode = codeset.uppercased().filter { $0 != "-" } == "UTF8"
        TerminalText.unicodeAvailable = unicode
        return unicode
    }

    /// Loads the first page and the thumbnails on screen, and waits until the screen settles or `timeout` passes;
    /// then returns the screen. The table is left as it is, for the caller to read what failed or still loads;
    /// `table.cancelAll()` stops its loads.
    public func run(timeout: Duration) async -> Result {
        table.onChange { [weak self] in self?.signalChange() }
        let deadline = Task { [weak self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self?.expire()
        }
        table.start()
        var settled = false
        while true {
            changed = false
            table.update()
            settled = table.isSettled
            if settled || timedOut { break }
            // A change signalled during update() (a page load starting) needs another look before waiting.
            if !changed { await nextChange() }
        }
        deadline.cancel()
        let frame = table.frame()
        var screen = CellBuffer(width: size.columns, height: size.rows)
        screen.draw(frame, x: 0, y: 0)
        return Result(screen: screen, settled: settled)
    }

    private func nextChange() async {
        await withCheckedContinuation { continuation in waiter = continuation }
    }

    private func signalChange() {
        changed = true
        waiter?.resume()
        waiter = nil
    }

    private func expire() {
        timedOut = true
        signalChange()
    }
}
