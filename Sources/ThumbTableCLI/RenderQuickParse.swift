import ArgumentParser
import TextArt

/// `render`'s arguments read into a `RenderCommand` without ArgumentParser, for start-up speed.
///
/// Why it is kept: ArgumentParser finds a command's options by reflection, and in this statically linked binary that
/// costs more than decoding and rendering a small picture. Measured on the release build, `render IMG --size 80x40
/// --mode ascii --color none` on the nine images of `scripts/race-jp2a`, on this shared 2-core machine:
///
/// | | quick parser | ArgumentParser |
/// |---|---|---|
/// | `scripts/race-jp2a`, 3 races each way back to back: median per-image ratio to jp2a | 0.84 to 0.88 | 1.32 to 1.54 |
/// | paired rounds of both paths and jp2a (`-- IMG` takes the long way): ratio to jp2a | 0.65 to 1.00 | 0.98 to 1.55 |
/// | the same rounds: time a run added by the long way, median of pairs | | +4.9 to +7.6 ms |
/// | callgrind, 10x10 PNG (start-up and little else) | 11.3 M instructions | 36.2 M |
///
/// ArgumentParser on `RenderCommand` alone, without the root command, still added 2 to 3 ms and 13.5 M instructions.
/// Without the quick parser `render` is a third to a half slower than jp2a instead of faster, which a script that
/// renders a folder of pictures feels. (The races ran a scratch build of the former quick parser, switched off by an
/// environment variable; the rest ran this one. Filling `RenderCommand` itself costs 0.7 M instructions more than the
/// former separate settings struct did; paired runs of the two builds showed no slower wall time.)
///
/// It declares no option of its own: `quickOptions` says which of `RenderCommand`'s properties each option name
/// fills and the value it starts from (`RenderQuickParseTests` checks that it names exactly the options ArgumentParser
/// finds, and that both give the same command); values are converted by the same `ExpressibleByArgument` initialisers
/// ArgumentParser uses, and checked by the same `validate()`. It takes the forms people and scripts write (`--size
/// 80x40`, `--size=80x40`, the file anywhere) and returns nil for anything it does not take exactly as ArgumentParser
/// would (`QuickParser.read`): help, short or unknown options, an option given twice, `--`, a value that does not
/// parse or validate. Those go the long way, which prints ArgumentParser's messages and help.
extension RenderCommand {
    init?(quickParsing arguments: [String]) {
        var command = RenderCommand()
        // The input has no default: nothing is given until it is read.
        let input = QuickOption<RenderCommand>(start: { _ in }, read: { $0.input = $1; return true })
        guard QuickParser.read(arguments, into: &command, options: Self.quickOptions, positional: input,
                               required: true),
              (try? command.validate()) != nil else { return nil }
        self = command
    }

    /// Each option by its long name, as ArgumentParser names the property (`cellAspect`: `cell-aspect`), with the
    /// default its declaration gives. A list, not a dictionary: hashing the names cost more than reading ten.
    static var quickOptions: [(name: String, option: QuickOption<RenderCommand>)] {
        [
            ("size", .optional { $0.size = $1 }), ("cols", .optional { $0.cols = $1 }),
            ("rows", .optional { $0.rows = $1 }), ("stretch", .flag { $0.stretch = $1 }),
            ("mode", .value(default: TextArtOptions.default.mode) { $0.mode = $1 }),
            ("color", .optional { $0.color = $1 }),
            ("dither", .value(default: TextArtOptions.default.dither) { $0.dither = $1 }),
            ("cell-aspect", .value(default: TextArtOptions.default.cellAspect) { $0.cellAspect = $1 }),
            ("background", .value(default: defaultBackground) { $0.background = $1 }),
            ("timeout", .value(default: defaultTimeout) { $0.timeout = $1 }),
            ("graphics", .value(default: RenderGraphics.text) { $0.graphics = $1 }),
        ]
    }
}
