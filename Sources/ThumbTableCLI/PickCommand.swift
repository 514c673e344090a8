import ArgumentParser
import Glibc
import Items
import ItemSources
import Terminal

/// `thumbtable pick`: items read from stdin as they arrive (a file path or an http(s) image URL a line, or JSON),
/// shown as the list or grid of thumbnails on the terminal (`/dev/tty`, so stdin and stdout stay the script's), the
/// choice printed to stdout.
struct PickCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Pick from items read from stdin, shown with their thumbnails; the choice goes to stdout.",
        discussion: """
            Each line of stdin is a file path or an http(s) image URL; Enter prints the chosen one, byte for byte, \
            and exits 0 (Esc, q or Ctrl-C: nothing, 130; an empty input: 1). Examples: \
            find ~/Pictures -name '*.jpg' | thumbtable pick --layout grid; \
            ls *.png | thumbtable pick --multi | xargs -d '\\n' cp -t /tmp; \
            curl -s URL | thumbtable pick --json --items data --title name --image url --print-key id
            """)

    @Flag(help: "Read one JSON object a line, by the key paths below, instead of paths and URLs.")
    var json = false

    @Option(help: "Read stdin as one JSON document whose items are the list at this key path (implies --json).")
    var items: String?

    @Option(help: "With --json: key path of an item's title.")
    var title = "title"

    @Option(help: "With --json: key path of an item's subtitle.")
    var subtitle: String?

    @Option(help: "With --json: key path of an item's image URL (http(s)).")
    var image: String?

    @Option(help: "With --json: key path of an item's small image URL (the row's thumbnail).")
    var thumb: String?

    @Option(help: "With --json (JSON lines): print the value at this key path of each item chosen, not its line.")
    var printKey: String?

    @OptionGroup var display: DisplayOptions

    func validate() throws {
        if !json, items == nil {
            let given = [(subtitle, "--subtitle"), (image, "--image"), (thumb, "--thumb"), (printKey, "--print-key")]
            if let (_, name) = given.first(where: { $0.0 != nil }) {
                throw ValidationError("\(name) reads JSON: add --json (or --items KEYPATH for one document)")
            }
        }
        if items != nil, printKey != nil {
            throw ValidationError("--print-key reads JSON lines (--json), not one document (--items)")
        }
        if isatty(STDIN_FILENO) == 1 {
            throw ValidationError("pick reads its items from stdin: pipe them in, e.g. ls *.jpg | thumbtable pick")
        }
    }

    /// Where the key path options say an item's parts are.
    var keyPaths: JSONAPISource.KeyPaths {
        .init(items: items ?? "", title: title, subtitle: subtitle, image: image, thumbnail: thumb, next: nil,
              pageParameter: nil, limitParameter: nil, limit: 20)
    }

    @MainActor
    func run() async throws {
        let format: ItemStreamSource.Format = items != nil ? .jsonDocument(keyPaths) : json ? .jsonLines(keyPaths) : .lines
        let source: ItemStreamSource
        do {
            source = try ItemStreamSource(reading: STDIN_FILENO, format: format, name: "stdin")
        } catch {
            throw RunFailure(error.message)
        }
        var session = BrowsingSession(options: display)
        session.pickCommand = (implied: true, key: printKey)
        // Said on the screen as lines are read, and again once the terminal is given back, where a script sees it.
        defer { if let skipped = source.skippedNote { Messages.error(skipped) } }
        do {
            try await session.run(source: source)
        } catch let failure as Terminal.SetupError {
            // A picker that cannot reach a terminal is told apart from one that was cancelled or found nothing.
            throw RunFailure(failure.description, status: 2)
        }
    }
}
