import ArgumentParser

/// `thumbtable`: a terminal list browser with image thumbnails.
@main
struct ThumbTableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbtable",
        abstract: "Browse lists with image thumbnails in the terminal.",
        subcommands: [DemoCommand.self, SWAPICommand.self, PhotosCommand.self, BrowseCommand.self, FlickrCommand.self,
                      ServeDemoCommand.self, RenderCommand.self, CacheCommand.self],
        defaultSubcommand: DemoCommand.self
    )
}
