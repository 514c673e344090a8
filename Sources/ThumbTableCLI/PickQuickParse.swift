import ArgumentParser

/// `pick`'s arguments read into a `PickCommand` without ArgumentParser, for start-up speed (issue 27: a one-shot pick
/// in a script at most 1.5x fzf's time).
///
/// Why it is kept: ArgumentParser finds a command's options by reflection, and each option's wrapper type is looked
/// up in every protocol conformance of this binary at first use; `pick` has 36 options in four groups. On the release
/// build a one-shot pick of 10 paths (callgrind, `scripts/bench-pick --instructions`) spent 18.8 M of its 47.9 M
/// instructions in ArgumentParser parsing `pick` alone, 2.6 M of 31.7 M here (docs/benchmarks.md).
///
/// It works as `render`'s does (`RenderQuickParse.swift`): the options stay declared once, in `PickCommand` and its
/// groups; `quickOptions` names them with their defaults, `PickQuickParseTests` checks that those are exactly the
/// options ArgumentParser finds and that both give the same command, and anything the quick parser does not take
/// exactly as ArgumentParser would (help, mistakes, a value that does not validate) goes the long way.
extension PickCommand {
    init?(quickParsing arguments: [String]) {
        guard let command = DisplayParts.command(arguments, PickCommand(), own: Self.quickOptions,
                                                 setDisplay: { $0.display = $1 }) else { return nil }
        self = command
    }

    /// `pick`'s arguments parsed and validated by ArgumentParser as a command of its own, not under the root
    /// command, for what the quick parser leaves: the root's parse first reflects over the root's options and then
    /// `pick`'s again. Nil for anything that does not parse or validate, help included: the long way
    /// (`ThumbTableCommand`) says why, in its words.
    static func parsedAlone(_ arguments: [String]) -> PickCommand? {
        try? parse(arguments)
    }

    /// `pick`'s own options by their long names, with the defaults their declarations give (the display options'
    /// are `DisplayParts.quickOptions`).
    static var quickOptions: [(name: String, option: QuickOption<PickCommand>)] {
        [
            ("json", .flag { $0.json = $1 }), ("items", .optional { $0.items = $1 }),
            ("title", .value(default: "title") { $0.title = $1 }), ("subtitle", .optional { $0.subtitle = $1 }),
            ("image", .optional { $0.image = $1 }), ("thumb", .optional { $0.thumb = $1 }),
            ("print-key", .optional { $0.printKey = $1 }),
        ]
    }
}
