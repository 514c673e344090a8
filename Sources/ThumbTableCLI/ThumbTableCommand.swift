import ArgumentParser
import FoundationEssentials

/// The entry point. `thumbtable render …` is parsed by `RenderCommand(quickParsing:)` first, `pick` and `browse` by
/// theirs: ArgumentParser reflects over the options of every command it might parse, which took longer than rendering
/// a picture (the figures are in `RenderQuickParse.swift`, `PickQuickParse.swift` and `BrowseQuickParse.swift`). What
/// a quick parser does not take (help, a mistake) goes the long way, so messages and help are ArgumentParser's. A
/// first argument that is no command gets a suggestion, one that is not UTF-8 is refused (`RawArguments`), and every
/// message is escaped (`Messages`).
@main
enum Main {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        // ArgumentParser builds every command's options to answer `--version`: 15 M instructions, 7 in 8 of the run.
        if arguments == ["--version"] {
            print(ThumbTableCommand.version)
            return
        }
        // Hidden: the man page's own sections, for scripts/generate-manual.
        if arguments == ["--manual-sections"] { return print(ManualSections.text) }
        arguments = PathArgument.arguments(arguments, commands: ThumbTableCommand.commandNames) ?? arguments
        if let mistake = RawArguments.notUTF8(in: RawArguments.current)
            ?? CommandSuggestion.mistake(in: arguments, commands: ThumbTableCommand.commandNames) {
            Messages.exit(withError: ValidationError(mistake))
        }
        if arguments.first == RenderCommand.configuration.commandName,
           let render = RenderCommand(quickParsing: Array(arguments.dropFirst())) {
            do {
                // A file is read, decoded and rendered right here on the main thread: no hop to another thread.
                try render.isURL ? await render.run() : render.render(downloaded: nil)
            } catch {
                Messages.exit(withError: error)
            }
            return
        }
        // ArgumentParser's own main, but its messages quote the user's arguments raw: they leave by Messages.
        do {
            let arguments = try ConfigDefaults.apply(to: arguments, variable: ConfigFile.variable)
            let rest = Array(arguments.dropFirst())
            if arguments.first == PickCommand.configuration.commandName,
               let pick = PickCommand(quickParsing: rest) ?? PickCommand.parsedAlone(rest) {
                return try await pick.run()
            }
            if arguments.first == BrowseCommand.configuration.commandName,
               let browse = BrowseCommand(quickParsing: rest) {
                return try await browse.run()
            }
            var command = try await ThumbTableCommand.asyncParseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            Messages.exit(withError: error)
        }
    }
}

/// `thumbtable`: a terminal list browser with image thumbnails.
struct ThumbTableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbtable",
        abstract: "Browse lists with image thumbnails in the terminal.",
        discussion: """
            thumbtable PATH shows what PATH names: a folder is browsed (as thumbtable browse PATH), an image file \
            opened in the detail pane (rendered, as thumbtable render PATH, when stdout is not a terminal), an \
            http(s) URL browsed as a JSON API with browse's key paths. A folder named like a command is reached as \
            ./NAME. thumbtable pick reads items from stdin and prints the one chosen.
            """,
        version: ThumbTableCommand.version,
        subcommands: [DemoCommand.self, SWAPICommand.self, PhotosCommand.self, BrowseCommand.self, FlickrCommand.self,
                      ServeDemoCommand.self, RenderCommand.self, CacheCommand.self, PickCommand.self],
        defaultSubcommand: DemoCommand.self
    )

    static var commandNames: [String] { configuration.subcommands.map { $0._commandName } }

    /// What `thumbtable --version` prints: the second wave's release.
    static let version = "0.2.0"

}
