import ArgumentParser
import Table

/// The display options with their option groups, as the quick parsers of `pick` and `browse` fill them.
///
/// Filled apart and put together at the end: an ArgumentParser option group can be set whole, but reading one that
/// holds no value yet stops the program, so `display.printing.print = true` cannot be written before `printing` is
/// set. The names and defaults are those of the declarations (`PickQuickParseTests` and `BrowseQuickParseTests`
/// check both against ArgumentParser's).
struct DisplayParts {
    var display = DisplayOptions()
    var printing = PrintOptions()
    var picking = PickOptions()
    var saveAndFilter = SaveAndFilterOptions()

    /// The display options with their groups in them, each checked by its `validate()` as ArgumentParser checks it;
    /// nil when one refuses.
    var validated: DisplayOptions? {
        var display = display
        display.printing = printing
        display.picking = picking
        display.saveAndFilter = saveAndFilter
        guard (try? printing.validate()) != nil, (try? saveAndFilter.validate()) != nil,
              (try? display.validate()) != nil else { return nil }
        return display
    }

    /// A command that holds the display options (`pick`, `browse`) filled from `arguments`: its own options (and
    /// positional argument), and the display options', put together and validated as ArgumentParser validates them;
    /// nil for anything the quick parser does not take (`QuickParser.read`). `command` is a new command, `own` its
    /// options, `setDisplay` sets its option group.
    static func command<Command: ParsableArguments>(
        _ arguments: [String], _ command: Command, own: [(name: String, option: QuickOption<Command>)],
        positional: QuickOption<Command>? = nil, setDisplay: (inout Command, DisplayOptions) -> Void
    ) -> Command? {
        var parts = WithCommand(command: command)
        let inCommand: (inout WithCommand<Command>, (inout Command) -> Void) -> Void = { $1(&$0.command) }
        let inDisplay: (inout WithCommand<Command>, (inout DisplayParts) -> Void) -> Void = { $1(&$0.display) }
        let options = own.map { ($0.name, $0.option.within(inCommand)) }
            + quickOptions.map { ($0.name, $0.option.within(inDisplay)) }
        guard QuickParser.read(arguments, into: &parts, options: options, positional: positional?.within(inCommand)),
              let display = parts.display.validated else { return nil }
        var command = parts.command
        setDisplay(&command, display)
        guard (try? command.validate()) != nil else { return nil }
        return command
    }

    /// A command and its display options, filled apart.
    struct WithCommand<Command> {
        var command: Command
        var display = DisplayParts()
    }

    /// Every option of the display options and their groups by its long name, with its declared default.
    static var quickOptions: [(name: String, option: QuickOption<DisplayParts>)] {
        displayOptions.map { ($0.name, $0.option.within { $1(&$0.display) }) }
            + printOptions.map { ($0.name, $0.option.within { $1(&$0.printing) }) }
            + pickOptions.map { ($0.name, $0.option.within { $1(&$0.picking) }) }
            + saveAndFilterOptions.map { ($0.name, $0.option.within { $1(&$0.saveAndFilter) }) }
    }

    private static var displayOptions: [(name: String, option: QuickOption<DisplayOptions>)] {
        [
            ("thumb-size", .value(default: "auto") { $0.thumbSize = $1 }), ("mode", .optional { $0.mode = $1 }),
            ("layout", .value(default: LayoutMode.list) { $0.layout = $1 }), ("color", .optional { $0.color = $1 }),
            ("graphics", .value(default: GraphicsChoice.auto) { $0.graphics = $1 }),
            ("memory-cache-mb", .value(default: 64) { $0.memoryCacheMb = $1 }),
            ("cache-dir", .optional { $0.cacheDir = $1 }), ("no-disk-cache", .flag { $0.noDiskCache = $1 }),
            ("disk-cache-mb", .value(default: 200) { $0.diskCacheMb = $1 }),
            ("stats-file", .optional { $0.statsFile = $1 }), ("low-data", .flag { $0.lowData = $1 }),
            ("max-downloads", .value(default: 6) { $0.maxDownloads = $1 }),
            ("max-downloads-per-host", .value(default: 6) { $0.maxDownloadsPerHost = $1 }),
            ("timeout", .value(default: 15.0) { $0.timeout = $1 }),
            ("stall-timeout", .value(default: 5.0) { $0.stallTimeout = $1 }),
            ("max-image-mb", .value(default: 20) { $0.maxImageMb = $1 }),
            ("no-prefetch", .flag { $0.noPrefetch = $1 }), ("reuse-overlay", .flag { $0.reuseOverlay = $1 }),
            ("memory-limit", .optional { $0.memoryLimit = $1 }),
        ]
    }

    private static var printOptions: [(name: String, option: QuickOption<PrintOptions>)] {
        [
            ("print", .flag { $0.print = $1 }), ("print-size", .optional { $0.printSize = $1 }),
            ("print-timeout", .optional { $0.printTimeout = $1 }),
        ]
    }

    private static var pickOptions: [(name: String, option: QuickOption<PickOptions>)] {
        [
            ("pick", .flag { $0.pick = $1 }), ("multi", .flag { $0.multi = $1 }), ("print0", .flag { $0.print0 = $1 }),
            ("query", .optional { $0.query = $1 }), ("select-1", .flag { $0.selectOne = $1 }),
        ]
    }

    private static var saveAndFilterOptions: [(name: String, option: QuickOption<SaveAndFilterOptions>)] {
        [
            ("save-dir", .optional { $0.saveDir = $1 }),
            ("filter-read-limit", .value(default: ListState.defaultFilterReadLimit) { $0.filterReadLimit = $1 }),
        ]
    }
}
