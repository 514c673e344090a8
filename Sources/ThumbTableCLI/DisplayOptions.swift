import ArgumentParser
import Cells
import Graphics
import Table
import TextArt

/// Options every browsing command shares: how thumbnails look, and how images are fetched and cached; parsed and
/// checked here, and built into a running table by `BrowsingSession`.
struct DisplayOptions: ParsableArguments {
    // Number options take the next argument whatever it looks like, so a negative number is told it is out of range
    // instead of "Missing value" (ArgumentParser reads a leading dash as an option).
    @Option(parsing: .unconditional,
            help: "Thumbnail size in cells, COLSxROWS (at most \(Ceiling.thumbnail)), or auto: sized to the screen.")
    var thumbSize = "auto"

    @Option(help: "Text-art mode: \(RenderMode.allCases.map(\.rawValue).joined(separator: ", ")).")
    var mode: RenderMode?

    @Option(help: "Show the list, the grid or the compact list at the start (the v and c keys switch).")
    var layout: LayoutMode = .list

    @Option(help: "Colours: none, 16, 256, truecolor (default: what the terminal shows).")
    var color: ColorDepth?

    @Option(help: "Pictures in pixels: auto (ask the terminal), kitty, sixel, iterm2, or text (text art only).")
    var graphics: GraphicsChoice = .auto

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

    @OptionGroup(title: "Print mode") var printing: PrintOptions

    @OptionGroup(title: "Picking") var picking: PickOptions

    @Option(help: ArgumentHelp(
        "Shed the memory caches when resident memory passes this many MB.",
        discussion: "Default: 90 % of the cgroup's memory.max, else a quarter of the machine's memory."))
    var memoryLimit: Int?

    @OptionGroup(title: "Saving and filtering") var saveAndFilter: SaveAndFilterOptions

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
        if let memoryLimit { try Ceiling.check(memoryLimit, "--memory-limit", in: 1...(1 << 30), unit: "MB") }
    }

    /// --thumb-size, parsed by the same rule as `render --size`; nil for `auto` (sized to the screen).
    func thumbnailSize() throws(ValidationError) -> CellSize? {
        if thumbSize.lowercased() == "auto" { return nil }
        guard thumbSize.lowercased().contains("x") else {
            throw ValidationError("--thumb-size must be auto or look like 40x20 (columns x rows), got '\(thumbSize)'")
        }
        let box = try CellBox(parsing: thumbSize, option: "--thumb-size", ceiling: Ceiling.thumbnail)
        return CellSize(columns: box.columns, rows: box.rows)
    }
}

/// The values of --graphics.
enum GraphicsChoice: String, CaseIterable, ExpressibleByArgument {
    case auto, kitty, sixel, iterm2, text

    /// What the terminal is asked: `auto` detects, the others name the protocol (`text` asks nothing).
    var request: GraphicsRequest {
        GraphicsProtocol(rawValue: rawValue).map { .forced($0) } ?? .auto
    }
}

extension RenderMode: ExpressibleByArgument {}
extension LayoutMode: ExpressibleByArgument {}
extension ColorDepth: ExpressibleByArgument {}
