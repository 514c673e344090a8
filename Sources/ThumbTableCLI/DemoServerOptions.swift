import ArgumentParser
import DemoResources
import DemoServer
import FoundationEssentials

/// How the embedded demo server answers: latency and faults, shared by `demo` and `serve-demo`.
struct DemoServerOptions: ParsableArguments {
    // Number options take the next argument whatever it looks like, so a negative number is told it is out of range.
    @Option(parsing: .unconditional,
            help: "The least time each request to the demo server waits, in ms (at most \(Ceiling.demoDelayMS)).")
    var latency = 150

    @Option(parsing: .unconditional,
            help: "Random extra time each request waits, up to this many ms (at most \(Ceiling.demoDelayMS)).")
    var jitter = 450

    @Option(parsing: .unconditional, help: "Extra time a page of rows takes, in ms (at most \(Ceiling.demoDelayMS)).")
    var pageDelay = 100

    @Option(parsing: .unconditional,
            help: "The share of requests that fail (0 to 1): half answer 500, half lose the connection mid-body.")
    var failRate = 0.0

    @Option(help: "Seeds the latency and fault draws: the same seed repeats a run.")
    var seed: UInt64 = 1

    func validate() throws {
        try Ceiling.check(latency, "--latency", in: 0...Ceiling.demoDelayMS, unit: "ms")
        try Ceiling.check(jitter, "--jitter", in: 0...Ceiling.demoDelayMS, unit: "ms")
        try Ceiling.check(pageDelay, "--page-delay", in: 0...Ceiling.demoDelayMS, unit: "ms")
        try Ceiling.check(failRate, "--fail-rate", in: 0...1, then: "0.1 fails one request in ten")
    }

    /// Checks a `--port` option: `UInt16` would parse it, but with "The value '70000' is invalid" for a message.
    static func checkPort(_ port: Int) throws(ValidationError) {
        try Ceiling.check(port, "--port", in: 0...Int(UInt16.max), then: "0 takes any free port")
    }

    func configuration(port: UInt16, demoCases: Bool, rows: Int = 0, pageSize: Int = 10) -> DemoServer.Configuration {
        DemoServer.Configuration(port: port, latency: .milliseconds(latency), jitter: .milliseconds(jitter),
                                 pageDelay: .milliseconds(pageDelay), failRate: failRate, seed: seed,
                                 demoCases: demoCases, rows: rows, pageSize: pageSize)
    }

    /// Starts the server on the bundled data; a failure is a `RunFailure` that says why.
    func start(port: Int, demoCases: Bool, rows: Int = 0, pageSize: Int = 10) async throws(RunFailure) -> DemoServer {
        guard let directory = DemoResources.directory else {
            throw RunFailure("the demo data (Resources/demo in the checkout this binary was built from) "
                             + "was not found; build and run thumbtable in its checkout")
        }
        do {
            return try await DemoServer.start(dataDirectory: directory,
                                              configuration: configuration(port: UInt16(port), demoCases: demoCases,
                                                                            rows: rows, pageSize: pageSize))
        } catch {
            throw RunFailure("\(error)")
        }
    }

    /// Starts the server on `port` when it was given; else on `usual`, or on any free port when that one cannot be
    /// listened on (another demo holds it), with a note that says so. A port given and taken is a failure: a
    /// script that asked for it would otherwise talk to whatever holds it.
    func start(port: Int?, usual: Int, demoCases: Bool, rows: Int = 0, pageSize: Int = 10)
        async throws(RunFailure) -> (server: DemoServer, note: String?)
    {
        if let port { return (try await start(port: port, demoCases: demoCases, rows: rows, pageSize: pageSize), nil) }
        do {
            return (try await start(port: usual, demoCases: demoCases, rows: rows, pageSize: pageSize), nil)
        } catch {
            let server = try await start(port: 0, demoCases: demoCases, rows: rows, pageSize: pageSize)
            return (server, "port \(usual) is taken, so the demo server listens on \(server.port) (--port picks one)")
        }
    }
}
