import App
import ArgumentParser
import Cells
import FoundationEssentials
import Glibc
import Items
import Pipeline
import Table
import Terminal
import TextArt

/// One run of a browsing command: the image pipeline (loader, limits, memory and disk caches), the table and the app
/// built around a source from the display options, run until the user quits.
struct BrowsingSession {
    let options: DisplayOptions
    /// The `pick` command: picking without `--pick`, and what `--print-key` asks of a JSON item.
    var pickCommand: (implied: Bool, key: String?) = (false, nil)
    /// Open the first item's detail pane as soon as it arrives (`thumbtable photo.jpg`: a list of one).
    var opensFirstItem = false
    /// What the status line says on the first screen, until the first key (the demo explains itself).
    var firstNote: String?

    /// Opens the table on `source` and runs it until the user quits; then writes the stats file if one was asked for.
    @MainActor
    func run(source: any ItemSource) async throws {
        try options.picking.check(implied: pickCommand.implied)
        let picking = options.picking.picking(implied: pickCommand.implied)
        if picking != nil, options.printing.print {
            throw ValidationError("--print prints one screen; picking shows the list to pick from: use one of them")
        }
        if options.printing.print { return try await printScreen(source: source) }
        let (pipeline, diskProblem) = makePipeline(for: source)
        var configuration = try tableConfiguration(prefetch: !options.noPrefetch)
        configuration.picking = picking
        // The screen is taken here: the loader draws for the colours and characters the terminal shows.
        let terminal = try Terminal(colors: colorRequest, graphics: options.graphics.request)
        let loader = PipelineThumbnailLoader(pipeline: pipeline, options: textArtOptions(for: terminal))
        let app = App(terminal: terminal, source: source, configuration: configuration, loader: loader,
                      saveFolder: options.saveAndFilter.saveFolder, pixels: pipeline)
        show(pipeline, in: app.table)
        if let firstNote { app.table.say([app.table.status, firstNote].compactMap { $0 }.joined(separator: "; ")) }
        // Said once, in the status line; images are still shown, only not kept.
        if let diskProblem { app.table.say("No disk cache: \(diskProblem)") }
        pipeline.onDiskCacheOff { [weak table = app.table] error in
            Task { @MainActor in
                table?.say("Disk cache off: \(error)")
            }
        }
        let pick = picking.map { _ in PickSession(options: options.picking, key: pickCommand.key, app: app) }
        var firstItemOpened = !opensFirstItem
        app.afterUpdate = { [unowned app] in
            if !firstItemOpened, !app.table.items.isEmpty {
                firstItemOpened = true
                app.table.openSelected()
            }
            pick?.look()
        }
        app.onRestored = { [unowned app] status in
            let status = pick?.finish(status: status, localFiles: source.origin == .local) ?? status
            return (try? writeStats(of: app.table, pipeline)) == nil ? 1 : status
        }
        let status = await app.run()
        await pipeline.cancelAll()
        if status != 0 { throw ExitCode(status) }
    }

    /// The image pipeline for `source`'s images, with the options' limits and disk cache, and why there is no disk
    /// cache when one was asked for and cannot be used.
    func makePipeline(for source: any ItemSource) -> (pipeline: ImagePipeline, diskProblem: DiskCache.Error?) {
        let disk = diskCache()
        let pipeline = ImagePipeline(configuration: pipelineConfiguration(), loader: Self.loader(for: source),
                                     diskCache: disk.cache)
        pipeline.watchMemory(.live(limitMB: options.memoryLimit))
        return (pipeline, disk.problem)
    }

    /// Adds the pipeline's counters to the table's overlay, and shows the overlay when --reuse-overlay asks.
    @MainActor
    func show(_ pipeline: ImagePipeline, in table: TableController) {
        table.showCounters { pipeline.counters.snapshot.named }
        if options.reuseOverlay { table.toggleReuseOverlay() }
    }

    /// Writes --stats-file, if asked for: the table's counters and the pipeline's.
    @MainActor
    func writeStats(of table: TableController, _ pipeline: ImagePipeline) throws {
        guard let statsFile = options.statsFile else { return }
        try RunStats(table: table, pipeline: pipeline.counters.snapshot).write(to: statsFile)
    }

    /// The loader for a source's images: only a folder's rows may be read from local files; a server's links never are.
    static func loader(for source: any ItemSource) -> DataLoader {
        DataLoader(localFiles: source.origin == .local ? .allowed : .refused)
    }

    /// The disk cache the options ask for: nil with --no-disk-cache, or with why it cannot be used (a read-only or
    /// unwritable folder), for the status line; the program runs on without it.
    func diskCache() -> (cache: DiskCache?, problem: DiskCache.Error?) {
        guard !options.noDiskCache else { return (nil, nil) }
        let directory = options.cacheDir.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? DiskCache.defaultDirectory()
        do {
            return (try DiskCache(directory: directory, sizeLimit: options.diskCacheMb << 20), nil)
        } catch {
            return (nil, error)
        }
    }

    /// The table the options ask for: thumbnail size, layout, low-data mode; prefetching as the caller says (the
    /// print mode has nothing to prefetch for).
    func tableConfiguration(prefetch: Bool) throws -> TableController.Configuration {
        TableController.Configuration(thumbnail: try options.thumbnailSize(), lowData: options.lowData,
                                      prefetch: prefetch, layout: options.layout,
                                      filterReadLimit: options.saveAndFilter.filterReadLimit)
    }

    func pipelineConfiguration() -> ImagePipeline.Configuration {
        ImagePipeline.Configuration(
            maxDownloads: options.maxDownloads, maxDownloadsPerHost: options.maxDownloadsPerHost,
            memoryCacheBytes: options.memoryCacheMb << 20,
            limits: LoadLimits(maxBytes: options.maxImageMb << 20, timeout: .milliseconds(Int(options.timeout * 1000)),
                               stallTimeout: .milliseconds(Int(options.stallTimeout * 1000))))
    }

    /// The colours the table is asked for: --color where given, else none under NO_COLOR, else what the terminal
    /// shows. An explicit --color beats NO_COLOR.
    var colorRequest: ColorRequest {
        switch options.color {
        case .some(.none): .none
        case .some(.ansi16): .palette(16)
        case .some(.palette256): .palette(256)
        case .some(.truecolor): .direct
        case nil: Self.noColor ? .none : .terminal
        }
    }

    /// Whether NO_COLOR asks for no colour: set and not empty (no-color.org).
    static var noColor: Bool { getenv("NO_COLOR").map { $0.pointee != 0 } ?? false }

    /// How thumbnails are drawn in a table of `terminalColors` colours (what --color asked, within what the terminal
    /// shows), on a terminal that shows Unicode or not: --mode where given.
    func textArtOptions(terminalColors: Int, unicode: Bool) -> TextArtOptions {
        var textArt = TextArtOptions.default
        textArt.color = ColorDepth.forTerminal(colors: terminalColors)
        // Without a UTF-8 locale only ASCII glyphs can be drawn: shape-matched ASCII. NO_COLOR (without --color)
        // asks for shapes too: without colour they show the most of a picture.
        let shapes = !unicode || options.color == nil && Self.noColor
        textArt.mode = options.mode ?? (shapes ? .shapes : TextArtOptions.default.mode)
        return textArt
    }

    /// How thumbnails are drawn on `terminal`: in the colours it shows, in Unicode where its locale has it.
    @MainActor
    func textArtOptions(for terminal: Terminal) -> TextArtOptions {
        textArtOptions(terminalColors: terminal.colorCount, unicode: terminal.unicode)
    }
}

extension ColorDepth {
    /// The richest depth a terminal with this many colours shows.
    static func forTerminal(colors: Int) -> ColorDepth {
        if colors >= 1 << 24 { return .truecolor }
        if colors >= 256 { return .palette256 }
        if colors >= 8 { return .ansi16 }
        return .none
    }
}
