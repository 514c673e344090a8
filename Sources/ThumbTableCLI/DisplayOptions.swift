import App
import ArgumentParser
import Items
import Table
import TextArt

/// Options every browsing command shares: how thumbnails look.
struct DisplayOptions: ParsableArguments {
    @Option(help: "Thumbnail size in cells, COLSxROWS.")
    var thumbSize = "12x5"

    @Option(help: "Text-art mode: \(RenderMode.allCases.map(\.rawValue).joined(separator: ", ")).")
    var mode: RenderMode?

    @Option(help: "Colours: none, 16, 256, truecolor (default: what the terminal shows).")
    var color: ColorDepth?

    func validate() throws {
        guard ThumbnailSize(thumbSize) != nil else {
            throw ValidationError("--thumb-size must look like 12x5 (columns x rows), got '\(thumbSize)'")
        }
    }

    /// Opens the table on a source and runs it until the user quits.
    @MainActor
    func runApp(source: any ItemSource, simulatedLatency: ClosedRange<Duration>? = nil) async throws {
        let size = ThumbnailSize(thumbSize) ?? ThumbnailSize(columns: 12, rows: 5)
        let app = try App(source: source, thumbnail: size) { colors, unicode in
            var options = TextArtOptions.default
            options.color = color ?? ColorDepth.forTerminal(colors: colors)
            // Without a UTF-8 locale only ASCII glyphs can be drawn: shape-matched ASCII.
            options.mode = mode ?? (unicode ? TextArtOptions.default.mode : .shapes)
            return ImageThumbnailLoader(options: options, simulatedLatency: simulatedLatency)
        }
        let status = await app.run()
        if status != 0 { throw ExitCode(status) }
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
