import ArgumentParser
import FoundationEssentials

/// The config file's values as command-line options: put before the user's own arguments of a browsing command,
/// each only where the command line does not give that option itself, so the command line wins.
///
/// Every key is checked before anything runs: an unknown key or a value the option refuses stops the program with
/// the file, the line, the key and ArgumentParser's own words, without the usage text (the command line is not
/// wrong) and with exit status 78 (`RunFailure.configStatus`).
enum ConfigDefaults {
    /// How a key's value becomes arguments.
    enum Kind {
        /// `--key VALUE`.
        case option
        /// `--key` when true, nothing when false.
        case flag
    }

    /// The keys the file may set: the display options a user sets once. Their names are the options' without the
    /// dashes (`thumb-size`, or `thumb_size`).
    static let keys: [String: Kind] = [
        "thumb-size": .option, "layout": .option, "mode": .option, "color": .option, "graphics": .option,
        "memory-cache-mb": .option, "disk-cache-mb": .option, "cache-dir": .option, "no-disk-cache": .flag,
        "save-dir": .option, "low-data": .flag, "no-prefetch": .flag, "max-downloads": .option,
        "max-downloads-per-host": .option, "timeout": .option, "stall-timeout": .option, "max-image-mb": .option,
        "filter-read-limit": .option, "memory-limit": .option,
    ]

    /// The commands that take display options; others get none of the file's values. `pick` takes them as `browse`
    /// does (every key the file can set is a display option; its items come from stdin, not from a source's
    /// settings).
    static let browsingCommands: Set<String> = [
        DemoCommand.configuration.commandName, SWAPICommand.configuration.commandName,
        PhotosCommand.configuration.commandName, BrowseCommand.configuration.commandName,
        FlickrCommand.configuration.commandName, PickCommand.configuration.commandName,
    ].reduce(into: []) { $0.insert($1 ?? "") }

    /// Arguments that print something and stop (help, version, completions): the file is not read for them, so a
    /// broken file never hides the help.
    static let informational: Set<String> = ["-h", "--help", "help", "--version", "--generate-completion-script",
                                             "--experimental-dump-help"]

    /// `arguments` with the config file's values put in, or the arguments as they are when the file is missing or
    /// the command takes no display options. Throws a `RunFailure` naming the file, line and key.
    static func apply(to arguments: [String], environment: [String: String]) throws -> [String] {
        try apply(to: arguments) { environment[$0] }
    }

    /// The same, with each environment variable read by `variable` (`ConfigFile.variable`: the process's).
    static func apply(to arguments: [String], variable: (String) -> String?) throws -> [String] {
        guard !arguments.contains(where: informational.contains),
              let path = ConfigFile.location(variable) else { return arguments }
        let insertAt: Int
        if let first = arguments.first, !first.hasPrefix("-") {
            guard browsingCommands.contains(first) else { return arguments }
            insertAt = 1
        } else {
            insertAt = 0
        }
        let file: ConfigFile?
        do {
            file = try ConfigFile.load(path)
        } catch {
            throw RunFailure.config("\(error); fix it, or move it away to run without it")
        }
        guard let file else { return arguments }
        let given = Set(arguments.map { $0.split(separator: "=", maxSplits: 1).first.map(String.init) ?? $0 })
        var defaults: [String] = []
        for entry in file.entries {
            let words = try self.arguments(for: entry, in: file)
            guard let option = words.first, !given.contains(option) else { continue }
            defaults += words
        }
        var merged = arguments
        merged.insert(contentsOf: defaults, at: insertAt)
        return merged
    }

    /// The arguments one entry stands for, checked by the options' own parsing and validation.
    static func arguments(for entry: ConfigFile.Entry, in file: ConfigFile) throws -> [String] {
        let key = ConfigFile.option(entry.key)
        func problem(_ message: String) -> RunFailure {
            // The key, the value and the option parser's message (which may quote the value) are cut when long.
            let cut = message.count > 240 ? message.prefix(240) + "…" : message
            return RunFailure.config("\(file.path):\(entry.line): \(ConfigSyntax.excerpt(entry.key)) = "
                                     + "\(ConfigSyntax.excerpt(entry.value.description)): \(cut)")
        }
        guard let kind = keys[key] else {
            throw problem("unknown key; the file can set \(keys.keys.sorted().joined(separator: ", "))")
        }
        let words: [String]
        switch (kind, entry.value) {
        case (.flag, .boolean(let on)):
            words = on ? ["--\(key)"] : []
        case (.flag, _):
            throw problem("needs true or false")
        case (.option, .boolean):
            throw problem("needs a value, not true or false")
        case (.option, .string(let text)):
            words = ["--\(key)", text]
        case (.option, .integer(let n)):
            words = ["--\(key)", "\(n)"]
        case (.option, .number(let x)):
            words = ["--\(key)", "\(x)"]
        }
        guard !words.isEmpty else { return [] }
        // Checked by the quick parser, which takes exactly what ArgumentParser takes; ArgumentParser says what is
        // wrong with the rest. (With a one-line config file, ArgumentParser's check made `browse EMPTY --print` 26.5 M
        // instructions instead of 9.7 M without the file; the quick parser's, 9.9 M instead of 9.2 M.)
        var parts = DisplayParts()
        if QuickParser.read(words, into: &parts, options: DisplayParts.quickOptions), parts.validated != nil {
            return words
        }
        do {
            _ = try DisplayOptions.parse(words)
        } catch {
            throw problem(DisplayOptions.message(for: error))
        }
        return words
    }
}
