import App
import ArgumentParser
import Cells
import FoundationEssentials
import Glibc
import Items
import Pipeline
import Table
import TextArt

/// The print mode (`--print`): the same pipeline, table and thumbnails as the interactive table, run headless by a
/// `Printer` until the screen settles, then written once to stdout as text. Everything else goes to stderr.
extension BrowsingSession {
    @MainActor
    func printScreen(source: any ItemSource) async throws {
        let screen = try options.printing.screenSize()
        let depth = printColorDepth()
        let (pipeline, diskProblem) = makePipeline(for: source)
        // No prefetch: nothing scrolls, so the next screen's thumbnails would only compete with this one's.
        var configuration = try tableConfiguration(prefetch: false)
        configuration.theme = .forColors(depth.colorCount)
        let loader = PipelineThumbnailLoader(pipeline: pipeline,
                                             options: printTextArtOptions(depth: depth, unicode: Printer.setUpLocale()))
        let printer = Printer(source: source, configuration: configuration,
                              size: CellSize(columns: screen.columns, rows: screen.rows), loader: loader)
        show(pipeline, in: printer.table)
        if let diskProblem { Messages.error("note: no disk cache: \(diskProblem)") }
        let result = await printer.run(timeout: options.printing.timeout)
        reportOnStderr(printer.table, settled: result.settled)
        // Written before the loads are stopped: the screen is what was asked for, whatever a stuck load does.
        let bytes = depth == .none ? result.screen.plainUTF8 : result.screen.ansiUTF8
        do {
            try StandardStreams.write(bytes, to: STDOUT_FILENO)
        } catch {
            Messages.error("cannot write the screen to stdout: \(error)")
            throw ExitCode.failure
        }
        printer.table.cancelAll()
        await pipeline.cancelAll()
        // The disk cache trims beside the work; the screen is out, so a run this short waits for it to finish.
        await pipeline.finishDiskCacheTrims()
        try writeStats(of: printer.table, pipeline)
        // The screen shows why, but a script must be able to tell that there was nothing to show.
        switch printer.table.listStatus {
        case .failed, .stopped: if printer.table.items.isEmpty { throw ExitCode.failure }
        case .loading, .more, .end: break
        }
    }

    /// The colour depth printed: --color, else what `render` picks for its stdout (none under NO_COLOR, else by
    /// COLORTERM and TERM).
    func printColorDepth() -> ColorDepth {
        options.color ?? RenderCommand.terminalColorDepth()
    }

    /// The thumbnails' options for `depth`: the table's own choice for a terminal of that depth, with the depth
    /// itself kept even where the table would pick another, and `shapes` for no colour (as the table draws under
    /// NO_COLOR) unless --mode says otherwise.
    func printTextArtOptions(depth: ColorDepth, unicode: Bool) -> TextArtOptions {
        var textArt = textArtOptions(terminalColors: depth.colorCount, unicode: unicode)
        textArt.color = depth
        if depth == .none, options.mode == nil { textArt.mode = .shapes }
        return textArt
    }

    /// What the status line would have said, and what did not arrive, as notes on stderr; the screen shows the rest.
    @MainActor
    func reportOnStderr(_ table: TableController, settled: Bool) {
        if case .failed(let message, _) = table.listStatus {
            Messages.error("\(table.items.isEmpty ? "the first page" : "a page") failed: \(message)")
        }
        for note in table.pageNotes { Messages.error("note: \(note)") }
        for failure in table.failedThumbnails {
            Messages.error("the thumbnail of '\(failure.title)' failed: \(failure.reason)")
        }
        if !settled {
            let waiting = table.waitingThumbnails
            var what: [String] = table.isWaitingForPage ? ["a page"] : []
            if waiting > 0 { what.append("\(waiting) thumbnail\(waiting == 1 ? "" : "s") on screen") }
            let seconds = options.printing.timeoutSeconds
            let shown = seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
            Messages.error("note: printed after \(shown) s "
                           + "(--print-timeout) with \(what.joined(separator: " and ")) still loading")
        }
    }
}

extension ColorDepth {
    /// The number of colours a terminal of this depth shows: what `BrowsingSession.textArtOptions` takes.
    var colorCount: Int {
        switch self {
        case .none: 0
        case .ansi16: 16
        case .palette256: 256
        case .truecolor: 1 << 24
        }
    }
}
