import ArgumentParser
import Dispatch

/// The entry point. `thumbtable render …` is parsed by `RenderSettings(quickParsing:)` first: ArgumentParser
/// reflects over the options of every command it might parse, which took longer than rendering a picture. What the
/// quick parser does not take (help, a mistake) goes the long way, so messages and help are ArgumentParser's.
@main
enum Main {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == RenderCommand.configuration.commandName,
           let render = RenderSettings(quickParsing: Array(arguments.dropFirst())), !render.isURL {
            // A file needs no concurrency: rendered on this thread, without starting Swift's thread pool.
            do {
                try render.render(downloaded: nil)
            } catch {
                ThumbTableCommand.exit(withError: error)
            }
            return
        }
        Task {
            await ThumbTableCommand.main()
            ThumbTableCommand.exit()
        }
        dispatchMain()
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
