import ArgumentParser

/// `thumbtable render FILE`: one image as text art on stdout.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "render", abstract: "Print an image as text art.")
    @Argument(help: "An image file or an http(s) URL.") var input: String
    func run() async throws { print("not yet") }
}
