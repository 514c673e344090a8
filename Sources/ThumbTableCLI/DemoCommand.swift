import App
import ArgumentParser
import DemoServer
import FoundationEssentials
import ItemSources

/// `thumbtable demo` (the default): the embedded demo server, started in-process on 127.0.0.1, browsed through the
/// SWAPI client with its Instant Answer image lookups, so it works offline.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Browse the embedded demo (the default): SWAPI species served on 127.0.0.1, with pictures.",
        discussion: """
            Starts the demo server in-process and browses its SWAPI-shaped species through the same client as \
            `thumbtable swapi`, each row's picture found by an Instant-Answer-shaped lookup and carrying the row's \
            number, so a picture in the wrong row shows at once. After the 37 species come demo cases (rows 38-43): \
            a long title, wide characters, a title full of escape sequences, a row without an image, a truncated \
            JPEG and a file that is not an image; then numbered specimens up to --rows.
            """)

    @OptionGroup var display: DisplayOptions
    @OptionGroup var server: DemoServerOptions

    @Option(parsing: .unconditional,
            help: "The demo server's port (0: any free port). By default \(Self.stablePort), or any free one when taken.")
    var port: Int?

    @Option(parsing: .unconditional,
            help: "The rows of the demo catalogue: the species and demo cases, then numbered specimens (at most \(Ceiling.demoRows)).")
    var rows = 2000

    @Option(parsing: .unconditional,
            help: "Rows a page of the demo catalogue (1 to \(Ceiling.pageItems)); 25 lets fast scrolling outrun the pictures.")
    var pageSize = 25

    /// The port the demo listens on unless told: the same every run, so its pictures' URLs are too and the disk
    /// cache serves them on the next launch. One above `serve-demo`'s, so both can run.
    static let stablePort = 8738

    @Flag(help: """
        Split the screen: the naive table (no cancel on reuse, no generation check: the bug on purpose) beside \
        ThumbTable, scrolled together over the same seeded delays.
        """)
    var compare = false

    @Flag(help: "Scroll by itself on a script drawn from --seed, then print the counters and exit (a key stops it).")
    var autoplay = false

    @Option(parsing: .unconditional, help: "How fast the autoplay plays: 2 is twice as fast (0.1 to 50).")
    var autoplaySpeed = 1.0

    @Option(parsing: .unconditional, help: "How many runs of moves the autoplay plays (1 to 200).")
    var autoplayLength = 14

    static let attribution =
        "All images from the demo server's Instant Answers: scikit-image sample data (public domain, CC0, BSD)"

    func validate() throws {
        if let port { try DemoServerOptions.checkPort(port) }
        try Ceiling.check(rows, "--rows", in: 0...Ceiling.demoRows, then: "the species and demo cases are 43 rows")
        try Ceiling.check(pageSize, "--page-size", in: 1...Ceiling.pageItems)
        try Ceiling.check(autoplaySpeed, "--autoplay-speed", in: 0.1...50, then: "2 plays twice as fast")
        try Ceiling.check(autoplayLength, "--autoplay-length", in: 1...200)
        if (compare || autoplay) && display.printing.print {
            throw ValidationError("--print shows one still screen; it cannot be used with --compare or --autoplay")
        }
    }

    /// The demo's catalog on a running demo server.
    /// The demo's first screen, until the first key: what a newcomer is looking at.
    static let firstNote = "Each picture shows its row's number · s shows the slots · demo --compare: the classic "
        + "bug beside it · ? keys"

    static func source(on demo: DemoServer) -> SWAPISource {
        SWAPISource(baseURL: demo.apiURL, imageSearchURL: demo.instantAnswerURL, name: "Demo catalog",
                    attribution: attribution)
    }

    @MainActor
    func run() async throws {
        // Another demo may hold the usual port: this one then runs on any, its pictures fetched anew.
        let demo = try await server.start(port: port, usual: Self.stablePort, demoCases: true, rows: rows,
                                          pageSize: pageSize).server
        if compare || autoplay {
            var generator = SplitMix64(seed: server.seed)
            let script = autoplay ? AutoplayScript(phases: autoplayLength, using: &generator) : nil
            let server = self.server, rows = self.rows, pageSize = self.pageSize
            var show = DemoShow(display: display, seed: server.seed, autoplay: script?.playing(atSpeed: autoplaySpeed))
            // The naive side's server: the same options and seed as ThumbTable's, on any free port.
            if compare {
                show.startNaiveServer = {
                    try await server.start(port: 0, demoCases: true, rows: rows, pageSize: pageSize)
                }
            }
            do {
                try await show.run(ours: demo)
            } catch {
                await demo.stop()
                throw error
            }
            return await demo.stop()
        }
        let source = Self.source(on: demo)
        var session = BrowsingSession(options: display)
        session.firstNote = Self.firstNote
        do {
            try await session.run(source: source)
        } catch {
            await demo.stop()
            throw error
        }
        await demo.stop()
    }
}

/// `thumbtable serve-demo`: the demo server alone, for curl, tests and the other clients.
struct ServeDemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve-demo",
        abstract: "Run the demo server on 127.0.0.1 until interrupted.")

    @Option(parsing: .unconditional,
            help: "The port to listen on (0: any free port). By default \(Self.usualPort), or any free one when taken.")
    var port: Int?

    /// The port `serve-demo` listens on unless told, so the URLs it prints stay the same from run to run.
    static let usualPort = 8737

    @Flag(help: "Append the demo cases (hostile, long and wide titles, missing and broken images) to the species.")
    var demoCases = false

    @OptionGroup var server: DemoServerOptions

    func validate() throws {
        if let port { try DemoServerOptions.checkPort(port) }
    }

    func run() async throws {
        let (demo, note) = try await server.start(port: port, usual: Self.usualPort, demoCases: demoCases)
        // On stderr: stdout keeps the same lines whatever the port.
        if let note { Messages.error(note) }
        let base = demo.baseURL.absoluteString
        let text = """
            ThumbTable demo server on \(base) (Ctrl-C stops it)
              species:   \(base)/api/species/?page=1
              answers:   \(base)/ia/?q=Wookie%20star%20wars&format=json
              photos:    \(base)/photos?_page=1&_limit=10
              images:    \(base)/placeholder/150/92c952/1  \(base)/media/chelsea.png
            Browse it:
              thumbtable swapi --base-url \(base)/api/ --image-search-url \(base)/ia/
              thumbtable photos --base-url \(base)/

            """
        Messages.write(text, to: .standardOutput)
        await demo.wait()
    }
}
