import App
import ArgumentParser
import DemoServer
import FoundationEssentials
import ItemSources
import Pipeline
import Table
import Terminal

/// `demo --compare` and `demo --autoplay`: the demo as a show. With `--compare` the naive table (the bug on purpose,
/// `SlotBindingPolicy.naive`) runs beside ThumbTable's, each with its own pipeline and its own demo server started
/// with the same options and seed, so both see the same delay for each picture; with `--autoplay` a seeded script
/// scrolls, and the counters are printed when it ends.
struct DemoShow {
    var display: DisplayOptions
    /// The seed of the delays and of the script, named in the summary.
    var seed: UInt64
    /// Starts the naive side's demo server, with the same options as ThumbTable's (`--compare`), or nil.
    var startNaiveServer: (@MainActor () async throws -> DemoServer)? = nil
    /// The script's steps, at the speed asked for; nil without `--autoplay`.
    var autoplay: [AutoplayScript.Step]?

    /// Runs the show on `ours` (the demo server the command started); the naive side gets a server of its own.
    @MainActor
    func run(ours: DemoServer) async throws {
        // Two servers with the same seed: each URL's first request waits as long on both, whichever side asks first.
        let naive = try await startNaiveServer?()
        do {
            try await run(ours: ours, naive: naive)
        } catch {
            await naive?.stop()
            throw error
        }
        await naive?.stop()
    }

    @MainActor
    private func run(ours: DemoServer, naive: DemoServer?) async throws {
        var display = self.display
        // Each side starts cold: a disk cache would let the second run (or the other side) skip the delays compared.
        display.noDiskCache = true
        let session = BrowsingSession(options: display)
        // One pipeline per side: shared caches would hand one side the pictures the other loaded.
        let source = DemoCommand.source(on: ours)
        // Both sides' sources are the demo server's, so their pipelines are made alike.
        let pipelines = (ours: session.makePipeline(for: source).pipeline,
                         naive: session.makePipeline(for: source).pipeline)
        let configuration = try session.tableConfiguration(prefetch: !display.noPrefetch)
        // The screen is taken here: the loaders draw for the colours and characters the terminal shows.
        let terminal = try Terminal(colors: session.colorRequest, graphics: display.graphics.request)
        let loader = { (pipeline: ImagePipeline) in
            PipelineThumbnailLoader(pipeline: pipeline, options: session.textArtOptions(for: terminal))
        }
        let app = App(terminal: terminal, source: source, configuration: configuration,
                      loader: loader(pipelines.ours), pixels: pipelines.ours,
                      naive: naive.map { (DemoCommand.source(on: $0), loader(pipelines.naive)) })
        session.show(pipelines.ours, in: app.table)
        if let naiveTable = app.naiveTable {
            session.show(pipelines.naive, in: naiveTable)
            // Until the first key: what the two sides are.
            naiveTable.say("Left: the classic bug. A late picture lands in a reused row: a wrong number")
            app.table.say("Right: ThumbTable. Each slot's load is cancelled when it is reused: never wrong")
        }
        var summary: AutoplaySummary?
        if let autoplay {
            app.autoplay(autoplay)
            // Read as the loop ends, before the tables are stopped: freeing the slots would change what they show.
            app.onQuit = { [unowned app] in
                var sides: [AutoplaySummary.Side] = []
                if let naiveTable = app.naiveTable {
                    sides.append(.init(name: "naive", table: naiveTable, pipeline: pipelines.naive.counters.snapshot))
                }
                sides.append(.init(name: "ThumbTable", table: app.table, pipeline: pipelines.ours.counters.snapshot))
                summary = AutoplaySummary(seed: seed, steps: autoplay.count, ending: app.autoplayEnding,
                                          sides: sides)
            }
        }
        app.onRestored = { [unowned app] status in
            // The terminal is restored by now: the summary goes to stdout, where a script can read it.
            if let summary { Messages.write(summary.text, to: .standardOutput) }
            return (try? session.writeStats(of: app.table, pipelines.ours)) == nil ? 1 : status
        }
        let status = await app.run()
        await pipelines.ours.cancelAll()
        await pipelines.naive.cancelAll()
        if status != 0 { throw ExitCode(status) }
    }
}
