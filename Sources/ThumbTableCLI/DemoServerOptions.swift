import ArgumentParser
import DemoResources
import DemoServer
import Foundation

/// How the embedded demo server answers: latency and faults, shared by `demo` and `serve-demo`.
struct DemoServerOptions: ParsableArguments {
    @Option(help: "The least time each request to the demo server waits, in milliseconds.")
    var latency = 150

    @Option(help: "Random extra time each request waits, up to this many milliseconds.")
    var jitter = 450

    @Option(help: "Extra time a page of rows takes, in milliseconds.")
    var pageDelay = 100

    @Option(help: "The share of requests that fail (0 to 1): half answer 500, half lose the connection mid-body.")
    var failRate = 0.0

    @Option(help: "Seeds the latency and fault draws: the same seed repeats a run.")
    var seed: UInt64 = 1

    func validate() throws {
        guard latency >= 0, jitter >= 0, pageDelay >= 0 else {
            throw ValidationError("--latency, --jitter and --page-delay must not be negative")
        }
        guard (0...1).contains(failRate) else { throw ValidationError("--fail-rate must be between 0 and 1, got \(failRate)") }
    }

    func configuration(port: UInt16, demoCases: Bool) -> DemoServer.Configuration {
        DemoServer.Configuration(port: port, latency: .milliseconds(latency), jitter: .milliseconds(jitter),
                                 pageDelay: .milliseconds(pageDelay), failRate: failRate, seed: seed,
                                 demoCases: demoCases)
    }

    /// Starts the server on the bundled data; errors are messages for the user.
    func start(port: UInt16, demoCases: Bool) async throws -> DemoServer {
        guard let directory = DemoResources.directory else {
            throw ValidationError("the bundled demo data (Resources/demo) was not found next to the executable")
        }
        do {
            return try await DemoServer.start(dataDirectory: directory,
                                              configuration: configuration(port: port, demoCases: demoCases))
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
