import FoundationEssentials

/// The embedded demo: a real HTTP server on 127.0.0.1 that speaks the shapes of the APIs the tutorials used (SWAPI
/// species, DuckDuckGo Instant Answers, jsonplaceholder photos), draws placeholder images and serves the bundled
/// photos, slowly and badly on request (`Configuration.latency`, `failRate`).
///
/// `thumbtable` starts one in-process and browses it; `thumbtable serve-demo` runs one alone for curl and tests.
public final class DemoServer: Sendable {
    /// How the server behaves.
    public struct Configuration: Sendable {
        /// The port to listen on; 0 takes a free one.
        public var port: UInt16
        /// The least time a request waits before its answer.
        public var latency: Duration
        /// Up to this much more, drawn per request.
        public var jitter: Duration
        /// Extra time a list page (species, photos) takes, on top of `latency`.
        public var pageDelay: Duration
        /// The share of URLs (0...1) that fail: half with a 500, half with a connection reset mid-body. A failing
        /// picture fails three times in a row (more than the client's automatic retries), a failing page or lookup
        /// once; after that they answer, so `r` repairs what failed.
        public var failRate: Double
        /// Seeds every draw: the same seed gives each request for a URL the same delay and fault, run after run.
        public var seed: UInt64
        /// Appends the demo cases (hostile, long and wide titles, missing and broken images) to the species list.
        public var demoCases: Bool
        /// How many rows the species list has in all: numbered specimens follow the species (and the demo cases) up
        /// to it. At most the species (and cases) when smaller.
        public var rows: Int
        /// Species a page: SWAPI's 10 unless told.
        public var pageSize: Int

        public init(port: UInt16 = 0, latency: Duration = .zero, jitter: Duration = .zero, pageDelay: Duration = .zero,
                    failRate: Double = 0, seed: UInt64 = 1, demoCases: Bool = false, rows: Int = 0,
                    pageSize: Int = 10) {
            self.port = port
            self.latency = latency
            self.jitter = jitter
            self.pageDelay = pageDelay
            self.failRate = failRate
            self.seed = seed
            self.demoCases = demoCases
            self.rows = rows
            self.pageSize = max(1, pageSize)
        }
    }

    /// Why the server could not start.
    public enum Error: Swift.Error, Sendable, CustomStringConvertible {
        case dataUnreadable(path: String, reason: String)
        case cannotListen(port: UInt16, reason: String)

        public var description: String {
            switch self {
            case .dataUnreadable(let path, let reason): "the demo data \(path) cannot be read: \(reason)"
            case .cannotListen(let port, let reason):
                "the demo server cannot listen on 127.0.0.1:\(port) (\(reason)); pick another --port, or 0 for any free one"
            }
        }
    }

    /// `http://127.0.0.1:PORT`, no trailing slash.
    public let baseURL: URL
    public let port: UInt16
    /// Where the SWAPI-shaped API is: `thumbtable swapi --base-url`.
    public var apiURL: URL { URL(string: baseURL.absoluteString + "/api/")! }
    /// Where the Instant Answer endpoint is: `thumbtable swapi --image-search-url`.
    public var instantAnswerURL: URL { URL(string: baseURL.absoluteString + "/ia/")! }

    private let loopback: LoopbackServer

    /// Reads the demo data from `directory` (`Resources/demo`) and starts listening on 127.0.0.1.
    public static func start(dataDirectory directory: URL, configuration: Configuration = .init()) async throws(Error)
        -> DemoServer
    {
        let data = try DemoData(directory: directory)
        let handler = DemoHandler(data: data, configuration: configuration)
        do {
            let loopback = try LoopbackServer(port: configuration.port) { request in handler.answer(request) }
            return DemoServer(loopback: loopback)
        } catch {
            throw .cannotListen(port: configuration.port, reason: error.reason)
        }
    }

    private init(loopback: LoopbackServer) {
        self.loopback = loopback
        port = loopback.port
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Stops listening and drops open connections.
    public func stop() async {
        loopback.stop()
    }

    /// Runs until the server is stopped or the calling task is cancelled (`serve-demo` runs until Ctrl-C).
    public func wait() async {
        let loopback = loopback
        await withTaskCancellationHandler {
            await loopback.waitUntilStopped()
        } onCancel: {
            loopback.stop()
        }
    }
}
