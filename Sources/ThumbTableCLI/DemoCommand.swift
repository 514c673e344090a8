import App
import ArgumentParser
import DemoResources
import ItemSources
import Table

/// `thumbtable demo` (the default): the bundled catalog, with simulated network latency.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Browse the bundled demo catalog (the default): real photos, loaded page by page.")

    @OptionGroup var display: DisplayOptions

    @Option(help: "Simulated latency of each image load, in milliseconds.")
    var latency = 150

    @Option(help: "Random extra latency of each image load, up to this many milliseconds.")
    var jitter = 450

    @Option(help: "Simulated latency of each page of rows, in milliseconds.")
    var pageDelay = 300

    func validate() throws {
        guard latency >= 0, jitter >= 0, pageDelay >= 0 else {
            throw ValidationError("--latency, --jitter and --page-delay must not be negative")
        }
    }

    @MainActor
    func run() async throws {
        guard let directory = DemoResources.directory else {
            throw ValidationError("the bundled demo catalog (Resources/demo) was not found next to the executable")
        }
        let source = try BundledCatalog(directory: directory, pageDelay: .milliseconds(pageDelay))
        let latencyRange = Duration.milliseconds(latency)...Duration.milliseconds(latency + jitter)
        try await display.runApp(source: source, simulatedLatency: latency + jitter > 0 ? latencyRange : nil)
    }
}
