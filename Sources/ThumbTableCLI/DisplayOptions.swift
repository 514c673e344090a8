import Cells
import App
import ArgumentParser
import Foundation
import Items
import Pipeline
import Table
import TextArt

/// Options every browsing command shares: how thumbnails look, and how images are fetched and cached.
struct DisplayOptions: ParsableArguments {
    // Number options take the next argument whatever it looks like, so a negative number is told it is out of range
    // instead of "Missing value" (ArgumentParser reads a leading dash as an option).
    @Option(parsing: .unconditional, help: "Thumbnail size in cells, COLSxROWS, at most \(Ceiling.thumbnail).")
    var thumbSize = "12x5"

    @Option(help: "Text-art mode: \(RenderMode.allCases.map(\.rawValue).joined(separator: ", ")).")
    var mode: RenderMode?

    @Option(help: "Colours: none, 16, 256, truecolor (default: what the terminal shows).")
    var color: ColorDepth?

    @Option(parsing: .unconditional,
            help: "Memory for cached thumbnails, bitmaps and image bytes, in MB (0 to \(Ceiling.memoryCacheMB)).")
    var memoryCacheMb = 64

    @Option(help: "Where downloaded images are kept between runs (default: $XDG_CACHE_HOME/thumbtable).")
    var cacheDir: String?

    @Flag(help: "Keep no images on disk.")
    var noDiskCache = false

    @Option(parsing: .unconditional, help: "The disk cache's size limit, in MB (0 to \(Ceiling.diskCacheMB)).")
    var diskCacheMb = 200

    @Option(help: "Write the pipeline's and the slots' counters here as JSON when the program ends.")
    var statsFile: String?

    @Flag(help: "Use each item's small image everywhere, the detail pane included.")
    var lowData = false

    @Option(parsing: .unconditional, help: "The most image downloads at once (1 to \(Ceiling.downloads)).")
    var maxDownloads = 6

    @Option(parsing: .unconditional,
            help: "The most image downloads at once from one host (1 to \(Ceiling.downloads)).")
    var maxDownloadsPerHost = 6

    @Option(parsing: .unconditional,
            help: "Seconds an image download may take (at most \(Int(Ceiling.timeoutSeconds))).")
    var timeout: Double = 15

    @Option(parsing: .unconditional,
            help: "Seconds an image download may go without a byte before it is given up (at most \(Int(Ceiling.timeoutSeconds))).")
    var stallTimeout: Double = 5

    @Option(parsing: .unconditional,
            help: "The largest image download, in MB (1 to \(Ceiling.imageMB)); a larger one is stopped there.")
    var maxImageMb = 20

    @Flag(help: "Do not fetch the thumbnails of the next screen ahead of need.")
    var noPrefetch = false

    @Flag(help: "Show the slots and counters overlay from the start (the s key toggles it).")
    var reuseOverlay = false

    func validate() throws {
        _ = try thumbnailSize()
        try Ceiling.check(memoryCacheMb, "--memory-cache-mb", in: 0...Ceiling.memoryCacheMB, unit: "MB")
        try Ceiling.check(diskCacheMb, "--disk-cache-mb", in: 0...Ceiling.diskCacheMB, unit: "MB",
                          then: "--no-disk-cache keeps nothing on disk")
        try Ceiling.check(maxDownloads, "--max-downloads", in: 1...Ceiling.downloads)
        try Ceiling.check(maxDownloadsPerHost, "--max-downloads-per-host", in: 1...Ceiling.downloads)
        try Ceiling.check(timeout, "--timeout", in: 0.1...Ceiling.timeoutSeconds, unit: "seconds")
        try Ceiling.check(stallTimeout, "--stall-timeout", in: 0.1...Ceiling.timeoutSeconds, unit: "seconds")
        try Ceiling.check(maxImageMb, "--max-image-mb", in: 1...Ceiling.imageMB, unit: "MB")
    }

    /// --thumb-size, parsed by the same rule as `render --size`.
    func thumbnailSize() throws(ValidationError) -> CellSize {
        let box = try CellBox(parsing: thumbSize, option: "--thumb-size", ceiling: Ceiling.thumbnail)
        return CellSize(columns: box.columns, rows: box.rows)
    }

    /// The disk cache the options ask for: nil with --no-disk-cache, or with why it cannot be used (a read-only or
    /// unwritable folder), for the status line; the program runs on without it.
    func diskCache() -> (cache: DiskCache?, problem: DiskCache.Error?) {
        guard !noDiskCache else { return (nil, nil) }
        let directory = cacheDir.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? DiskCache.defaultDirectory()
        do {
            return (try DiskCache(directory: directory, sizeLimit: diskCacheMb << 20), nil)
        } catch {
            return (nil, error)
        }
    }

    func pipelineConfiguration() -> ImagePipeline.Configuration {
        ImagePipeline.Configuration(
            maxDownloads: maxDownloads, maxDownloadsPerHost: maxDownloadsPerHost,
            memoryCacheBytes: memoryCacheMb << 20,
            limits: LoadLimits(maxBytes: maxImageMb << 20, timeout: .milliseconds(Int(timeout * 1000)),
                               stallTimeout: .milliseconds(Int(stallTimeout * 1000))))
    }

    /// Opens the table on a source and runs it until the user quits.
    @MainActor
    func runApp(source: any ItemSource) async throws {
        let size = try thumbnailSize()
        // Only a folder's rows may be read from local files; a server's links never are.
        let loader = DataLoader(localFiles: source.origin == .local ? .allowed : .refused)
        let disk = diskCache()
        let pipeline = ImagePipeline(configuration: pipelineConfiguration(), loader: loader, diskCache: disk.cache)
        let configuration = TableController.Configuration(thumbnail: size, lowData: lowData, prefetch: !noPrefetch)
        let app = try App(source: source, configuration: configuration) { colors, unicode in
            var options = TextArtOptions.default
            options.color = color ?? ColorDepth.forTerminal(colors: colors)
            // Without a UTF-8 locale only ASCII glyphs can be drawn: shape-matched ASCII.
            options.mode = mode ?? (unicode ? TextArtOptions.default.mode : .shapes)
            return PipelineThumbnailLoader(pipeline: pipeline, options: options)
        }
        app.table.showCounters { pipeline.counters.snapshot.named }
        // Said once, in the status line; images are still shown, only not kept.
        if let problem = disk.problem { app.table.say("No disk cache: \(problem)") }
        pipeline.onDiskCacheOff { [weak table = app.table] error in
            Task { @MainActor in
                table?.say("Disk cache off: \(error)")
            }
        }
        if reuseOverlay { app.table.toggleReuseOverlay() }
        let status = await app.run()
        await pipeline.cancelAll()
        if let statsFile { try writeStats(app.table.overlayCounters, to: statsFile) }
        if status != 0 { throw ExitCode(status) }
    }

    func writeStats(_ counters: [(name: String, value: Int)], to path: String) throws {
        let body = counters.map { "  \"\($0.name)\": \($0.value)" }.joined(separator: ",\n")
        do {
            try Data("{\n\(body)\n}\n".utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            // The run went well; only its record could not be kept: the message alone, no usage.
            Messages.error("cannot write the stats file \(path): \(error.localizedDescription)")
            throw ExitCode.failure
        }
    }
}

extension RenderMode: ExpressibleByArgument {}
extension ColorDepth: ExpressibleByArgument {}

extension ColorDepth {
    /// The richest depth a terminal with this many colours shows.
    static func forTerminal(colors: Int) -> ColorDepth {
        if colors >= 1 << 24 { return .truecolor }
        if colors >= 256 { return .palette256 }
        if colors >= 8 { return .ansi16 }
        return .none
    }
}
