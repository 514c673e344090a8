/// The quick parsers' one reading of a command line: long options by name (`--name VALUE`, `--name=VALUE`, flags)
/// and at most one positional argument anywhere.
enum QuickParser {
    /// Fills `target` from `arguments`: every option starts from its default, then the given ones are read. False
    /// for anything not taken exactly as ArgumentParser would take it: help, short or unknown options, an option
    /// given twice, `--`, a value that does not convert, an empty value or a separate one that starts with a dash
    /// (ArgumentParser says the value is missing), a positional argument where none (or one already) is
    /// taken, or none where one is `required`. `positional` reads the positional argument; nil when the command
    /// takes none.
    static func read<Target>(_ arguments: [String], into target: inout Target,
                             options: [(name: String, option: QuickOption<Target>)],
                             positional: QuickOption<Target>? = nil, required: Bool = false) -> Bool {
        for (_, option) in options { option.start(&target) }
        positional?.start(&target)
        var hasPositional = false
        // An array, not a Set: a Set of Substrings is a type the runtime makes at first use, after a search of every
        // protocol conformance in the binary (0.27 M instructions); an array of the few names given costs nothing.
        var seen: [Substring] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("--"), argument.count > 2 else {
                guard let positional, !hasPositional, !argument.isEmpty, !argument.hasPrefix("-"),
                      positional.read(&target, argument) else { return false }
                hasPositional = true
                continue
            }
            var name = argument.dropFirst(2)
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = name[..<equals]
            }
            guard let option = options.first(where: { $0.name == name })?.option, !seen.contains(name) else {
                return false
            }
            seen.append(name)
            if option.isFlag {
                guard value == nil, option.read(&target, "") else { return false }
            } else {
                if value == nil {
                    guard let next = rest.popFirst(), !next.hasPrefix("-") else { return false }
                    value = next
                }
                guard let value, !value.isEmpty, option.read(&target, value) else { return false }
            }
        }
        return hasPositional || !required
    }
}
