import ArgumentParser
import FoundationEssentials
import Items
import ItemSources
import LocalFiles
#if canImport(Glibc)
import Glibc
#endif

/// `thumbtable browse URL --items KEYPATH --title KEYPATH ...`: any paged JSON API; `thumbtable browse DIR`: the
/// images in a folder.
struct BrowseCommand: BrowsingCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Browse any paged JSON API, reading items by dotted key paths, or a folder of images.",
        discussion: """
            Example: thumbtable browse 'https://api.example.com/things' --items results --title name \
            --image image_url --next next
            A folder: thumbtable browse ~/Pictures [--recursive]; the current folder: thumbtable browse
            """)

    // Optional, so the help says the default once, in words: with `= "."` ArgumentParser added "(default: .)".
    @Argument(help: "The URL of the first page, a folder (default: the current folder), or one image file.")
    var url: String?

    /// What to browse: the URL or folder given, else the current folder.
    var location: String { url ?? "." }

    @Flag(help: "With a folder: the images in the folders below it too.")
    var recursive = false

    @Option(help: "Key path of the list of items in a page (empty: the page is the list).")
    var items = ""

    @Option(help: "Key path of an item's title (needed with a URL).")
    var title: String?

    @Option(help: "Key path of an item's subtitle.")
    var subtitle: String?

    @Option(help: "Key path of an item's image URL (the detail pane's picture).")
    var image: String?

    @Option(help: "Key path of an item's small image URL (the row's thumbnail).")
    var thumb: String?

    @Option(help: "Key path of the next page's URL in a page.")
    var next: String?

    @Option(help: "Count pages with this query parameter instead (e.g. _page).")
    var pageParam: String?

    @Option(help: "The page size query parameter to send with --page-param (e.g. _limit).")
    var limitParam: String?

    @Option(parsing: .unconditional, help: "Items a page with --limit-param (1 to \(Ceiling.pageItems)).")
    var limit = 20

    @OptionGroup var display: DisplayOptions

    /// Items read from a file or named pipe as they arrive, a path or an http(s) URL a line (with --title, a JSON
    /// object a line): the stdin source a picker will use, reachable until then without one. Hidden: the picker
    /// reads stdin itself, with the screen on /dev/tty.
    @Option(help: .hidden)
    var itemsFrom: String?

    /// The argument as a folder, when it is not an http(s) URL.
    var folder: URL? {
        let scheme = URL(string: location)?.scheme?.lowercased()
        if scheme == "http" || scheme == "https" { return nil }
        if scheme == "file", let parsed = URL(string: location) { return parsed }
        return URL(fileURLWithPath: Self.expandingTilde(location))
    }

    /// `path` with a leading "~" or "~/" made the home folder ($HOME), as a shell would have; "~user" is left.
    static func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"],
              !home.isEmpty else { return path }
        return home + path.dropFirst()
    }

    func validate() throws {
        if itemsFrom != nil { return }
        if let folder {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else {
                throw ValidationError("browse needs an http(s) URL or a folder; '\(location)' is neither "
                                      + "(no such file)")
            }
            return
        }
        guard title != nil else {
            throw ValidationError("browse URL needs --title KEYPATH: where each item keeps its title")
        }
        try Ceiling.check(limit, "--limit", in: 1...Ceiling.pageItems)
    }

    /// The argument as one image file (`thumbtable photo.jpg`), when it names something that is not a folder.
    var file: LocalPath? {
        guard itemsFrom == nil, let folder else { return nil }
        let path = LocalPath(fileURL: folder) ?? LocalPath(folder.path)
        if case .directory = LocalFile.kind(of: path) { return nil }
        return path
    }

    /// A folder or an API as every browsing command runs; one file as a list of one, its detail pane open.
    @MainActor
    func run() async throws {
        var session = BrowsingSession(options: display)
        session.opensFirstItem = file != nil
        try await session.run(source: try source())
    }

    func source() throws -> any ItemSource {
        if let file {
            do {
                return try FileSource(path: file)
            } catch {
                throw RunFailure(error.message)
            }
        }
        if let itemsFrom { return try Self.itemStream(from: itemsFrom, jsonLines: title == nil ? nil : keyPaths) }
        if let folder {
            do {
                return try FolderSource(directory: folder, recursive: recursive)
            } catch {
                // The folder was there when the arguments were checked: what fails now (it cannot be listed) is
                // no mistake on the command line.
                throw RunFailure(error.message)
            }
        }
        return JSONAPISource(url: URL(string: location)!, keyPaths: keyPaths)
    }

    /// Where the key path options say an item's parts are.
    var keyPaths: JSONAPISource.KeyPaths {
        .init(items: items, title: title ?? "", subtitle: subtitle, image: image, thumbnail: thumb, next: next,
              pageParameter: pageParam, limitParameter: limitParam, limit: limit)
    }

    /// The items of a file or named pipe (opened for reading here: a pipe waits for its writer), read as they come.
    static func itemStream(from path: String, jsonLines: JSONAPISource.KeyPaths?) throws -> ItemStreamSource {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw RunFailure("cannot read the items in \(path): \(String(cString: strerror(errno)))")
        }
        do {
            return try ItemStreamSource(reading: descriptor, format: jsonLines.map { .jsonLines($0) } ?? .lines,
                                        name: path)
        } catch {
            close(descriptor)
            throw RunFailure(error.message)
        }
    }
}
