import FoundationEssentials
import Glibc

/// `thumbtable PATH`: a first argument that names a folder, an image file or an http(s) URL, rather than a command,
/// runs the command that shows it: a folder is browsed, a file opened in the detail pane of a list of one (rendered
/// when stdout is not a terminal), a URL browsed as a JSON API (its key paths given as `browse` takes them). A command's name wins over a folder of that name: `./demo` reaches the folder.
enum PathArgument {
    /// What a first argument names.
    enum Target: Equatable {
        case folder, file, url
    }

    /// What `word` names, or nil when it is an option, a command, `help`, or names nothing that is there.
    static func target(of word: String, commands: [String]) -> Target? {
        guard !word.hasPrefix("-"), !commands.contains(word), word != "help" else { return nil }
        if let scheme = URL(string: word)?.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            return .url
        }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: word, isDirectory: &isDirectory) else { return nil }
        return isDirectory ? .folder : .file
    }

    /// The arguments with the command that shows the first one put in front; nil when the first argument is not a
    /// path or URL (ArgumentParser and `CommandSuggestion` have it then).
    static func arguments(_ arguments: [String], commands: [String],
                          stdoutIsTerminal: Bool = isatty(STDOUT_FILENO) == 1) -> [String]? {
        guard let first = arguments.first, let target = target(of: first, commands: commands) else { return nil }
        // A file opens in the detail pane of a list of one; printed by `render` when stdout is not a terminal.
        let command = switch target {
        case .folder, .url: BrowseCommand.configuration.commandName!
        case .file: (stdoutIsTerminal ? BrowseCommand.configuration : RenderCommand.configuration).commandName!
        }
        return [command] + arguments
    }
}
