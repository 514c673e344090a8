import ArgumentParser

/// `browse`'s arguments read into a `BrowseCommand` without ArgumentParser, for start-up speed (issue 29: `thumbtable
/// browse DIR --print` in a script).
///
/// Why it is kept: ArgumentParser's parse of `browse` (reflection over 40 options, each option's wrapper type looked
/// up in every protocol conformance of the binary at first use) made printing a grid of 8 photos 298.3 M
/// instructions against 266.6 M through this (callgrind, docs/benchmarks.md). It works as `pick`'s does
/// (`PickQuickParse.swift`): the options stay declared once, in `BrowseCommand` and its groups,
/// `BrowseQuickParseTests` checks that the names here are exactly the options ArgumentParser finds and that both give
/// the same command, and anything the quick parser does not take exactly as ArgumentParser would goes the long way.
extension BrowseCommand {
    init?(quickParsing arguments: [String]) {
        guard let command = DisplayParts.command(arguments, BrowseCommand(), own: Self.quickOptions,
                                                 positional: .optional { $0.url = $1 },
                                                 setDisplay: { $0.display = $1 }) else { return nil }
        self = command
    }

    /// `browse`'s own options by their long names, with the defaults their declarations give (the display options'
    /// are `DisplayParts.quickOptions`).
    static var quickOptions: [(name: String, option: QuickOption<BrowseCommand>)] {
        [
            ("recursive", .flag { $0.recursive = $1 }), ("items", .value(default: "") { $0.items = $1 }),
            ("title", .optional { $0.title = $1 }), ("subtitle", .optional { $0.subtitle = $1 }),
            ("image", .optional { $0.image = $1 }), ("thumb", .optional { $0.thumb = $1 }),
            ("next", .optional { $0.next = $1 }), ("page-param", .optional { $0.pageParam = $1 }),
            ("limit-param", .optional { $0.limitParam = $1 }), ("limit", .value(default: 20) { $0.limit = $1 }),
            ("items-from", .optional { $0.itemsFrom = $1 }),
        ]
    }
}
