import ArgumentParser

/// The entry point. `thumbtable render …` is parsed by `RenderSettings(quickParsing:)` first: ArgumentParser
/// reflects over the options of every command it might parse, which took longer than rendering a picture. What the
/// quick parser does not take (help, a mistake) goes the long way, so messages and help are ArgumentParser's.
@main
enum Main {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == RenderCommand.configuration.commandName,
           let render = RenderSettings(quickParsing: Array(arguments.dropFirst())) {
            do {
                // A file is read, decoded and rendered right here on the main thread: no hop to another thread.
                try render.isURL ? await render.run() : render.render(downloaded: nil)
            } catch {
                ThumbTableCommand.exit(withError: error)
            }
            return
        }
        await ThumbTableCommand.main()
    }
}

/// `thumbtable`: a terminal list browser with image thumbnails.
struct ThumbTableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbtable",
        abstract: "Browse lists with image thumbnails in the terminal.",
        subcommands: [DemoCommand.self, SWAPICommand.self, PhotosCommand.self, BrowseCommand.self, FlickrCommand.self,
                      ServeDemoCommand.self, RenderCommand.self, CacheCommand.self],
        defaultSubcommand: DemoCommand.self
    )
}
