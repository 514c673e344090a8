import Basics
import Dispatch
import FoundationEssentials
import Items
import LocalFiles
#if canImport(Glibc)
import Glibc
#endif

/// The images in a folder (and below it, when recursive), sorted by name, as pages of rows whose detail pane shows
/// each file's size, pixel dimensions, format and modified time.
///
/// Names are kept as the file system's bytes, so a name that is not UTF-8 is listed (shown with `\xNN` for its bad
/// bytes) and opened by its real name. An entry with an image's name that is not a regular file (a FIFO, a device, a
/// socket, a symlink to one) is listed as "not a regular file" and never opened: opening it could block forever or
/// read the terminal.
public struct FolderSource: ItemSource {
    /// The file extensions listed, lower-cased.
    public static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "png", "gif", "webp", "heic", "heif", "avif", "jxl",
    ]

    public let name: String
    public let attribution: String
    public let directory: LocalPath
    public let recursive: Bool
    public let pageSize: Int
    /// The names found so far, filled by the walk.
    let listing: FolderListing
    /// Stops the walk when the last copy of this source is let go.
    private let walkOwner: WalkOwner

    public var firstPage: PageCursor { .offset(0) }
    public var origin: ItemOrigin { .local }

    /// Starts listing the folder on a thread of its own; a folder that cannot be read is an error naming it.
    public init(directory: URL, recursive: Bool = false, pageSize: Int = 50) throws(ItemSourceError) {
        let path = LocalPath(fileURL: directory) ?? LocalPath(directory.path)
        try self.init(path: path, recursive: recursive, pageSize: pageSize)
    }

    public init(path: LocalPath, recursive: Bool = false, pageSize: Int = 50) throws(ItemSourceError) {
        try self.init(path: path, recursive: recursive, pageSize: pageSize, enteringFolder: nil)
    }

    /// - Parameter enteringFolder: see `FolderWalk.enteringFolder`.
    init(path: LocalPath, recursive: Bool, pageSize: Int, enteringFolder: (@Sendable (Int) -> Void)?)
        throws(ItemSourceError)
    {
        switch LocalFile.kind(of: path) {
        case .directory: break
        case .missing: throw ItemSourceError("\(path) does not exist")
        case let other: throw ItemSourceError("\(path) is not a folder: it is \(other)")
        }
        // Opened once here so that a folder that cannot be read is said at once, not as an empty list.
        guard let stream = path.withCString({ opendir($0) }) else {
            throw ItemSourceError("cannot list the folder \(path): \(String(cString: strerror(errno)))")
        }
        closedir(stream)
        directory = path
        self.recursive = recursive
        self.pageSize = max(1, pageSize)
        listing = FolderListing()
        walkOwner = WalkOwner(listing)
        let walk = FolderWalk(root: path, recursive: recursive, listing: listing, enteringFolder: enteringFolder)
        Self.walkQueue.async { walk.run() }
        let shown = path.description
        let last = shown.split(separator: "/").last.map(String.init) ?? shown
        name = "Folder · \(last)" + (recursive ? " (and below)" : "")
        attribution = "All images from your files in \(shown)"
    }

    /// Where walks run: a blocking `readdir` on a slow disk must not hold a thread of the cooperative pool.
    private static let walkQueue = DispatchQueue(label: "thumbtable.folder-walk", attributes: .concurrent)

    /// Tells the walk to stop when the source is let go.
    private final class WalkOwner: Sendable {
        let listing: FolderListing
        init(_ listing: FolderListing) { self.listing = listing }
        deinit { listing.stop() }
    }

    /// A page of rows, once the walk has listed them (or ended). While the walk goes on, the page's total is what it
    /// has found so far, and there is always a next page.
    public func page(at cursor: PageCursor) async throws -> ItemPage {
        guard case .offset(let start) = cursor, start >= 0 else {
            throw ItemSourceError("a folder's pages are offsets, not \(cursor)")
        }
        let window = try await listing.window(from: start, count: pageSize)
        let walking = window.end == nil
        guard window.listed > 0 || walking else {
            return ItemPage(items: [], next: nil, totalCount: 0, notes: [
                "\(directory) is empty: it has no images (.jpg, .jpeg, .png, .gif, .webp, .heic, .heif, .avif, .jxl)"
                    + (recursive ? " in it or below it" : "; --recursive also looks in the folders below it")
                    + (window.foldersLeftOut > 0 ? " (\(Self.subfolders(window.foldersLeftOut)))" : ""),
            ])
        }
        guard start < window.listed || (walking && start == window.listed) else {
            throw ItemSourceError("\(directory) has \(window.listed) images: offset \(start) is past the end")
        }
        let end = start + window.paths.count
        let names = window.paths
        // Reading sizes and headers is file system work: off the cooperative pool.
        let items = await BlockingIO.run { names.map(item) }
        // The first page says what the list leaves out: a user who does not know --recursive sees why their
        // photos in the folders below are missing.
        let notes = start == 0 && window.foldersLeftOut > 0
            ? ["\(Self.subfolders(window.foldersLeftOut)) not shown: --recursive lists the images below too"] : []
        return ItemPage(items: items, next: end < window.listed || walking ? .offset(end) : nil,
                        totalCount: walking ? max(window.found, window.listed) : window.listed, stillCounting: walking,
                        notes: notes)
    }

    /// "1 subfolder", "3 subfolders".
    static func subfolders(_ count: Int) -> String {
        count == 1 ? "1 subfolder" : "\(count) subfolders"
    }

    public func countSoFar() -> ItemCount? {
        listing.count
    }

    public func waitForCount(upTo interval: Duration) async -> Bool {
        await listing.waitForEnd(upTo: interval)
    }

    func item(_ relativePath: [UInt8]) -> Item {
        let path = directory.appending(relativePath)
        let folderBytes = relativePath.lastIndex(of: UInt8(ascii: "/")).map { Array(relativePath[..<$0]) }
        return Self.fileItem(at: path, title: LocalPath(bytes: relativePath).description, id: path.fileURL.absoluteString,
                             folder: folderBytes.map { directory.appending($0) } ?? directory)
    }

    /// The row of an image file: its size, pixel dimensions (from its header), format and modified time; a path that
    /// is not a regular file (a folder, a FIFO, a device) is a row that says what it is, and is never opened.
    static func fileItem(at path: LocalPath, title: String, id: String, folder: LocalPath) -> Item {
        var fields = [Item.Field("File", path.description)]
        let (kind, modified) = LocalFile.status(of: path)
        guard case .regular(let bytes) = kind else {
            fields.append(Item.Field("Kind", "not a regular file: it is \(kind); ThumbTable does not open it"))
            return Item(id: id, title: title, subtitle: "not a regular file (\(kind))", fields: fields,
                        imageURL: nil, attribution: nil)
        }
        let info = (try? LocalFile.readPrefix(path, count: ImageFileInfo.headerLimit)).flatMap(ImageFileInfo.parse)
        fields.append(Item.Field("Size", Self.describeSize(bytes)))
        fields.append(Item.Field("Pixel dimensions", info.map { "\($0.width) x \($0.height)" } ?? "unknown"))
        fields.append(Item.Field("Format",
                                 info?.format ?? "not a JPEG, PNG, GIF, WebP, HEIF, AVIF or JPEG XL the header says"))
        fields.append(Item.Field("Modified", modified.map(Self.describeDate) ?? "unknown"))
        let subtitle = [info?.format ?? "unknown format", info.map { "\($0.width)x\($0.height)" },
                        Self.describeSize(bytes)].compactMap { $0 }.joined(separator: " · ")
        return Item(id: id, title: title, subtitle: subtitle, fields: fields, imageURL: path.fileURL,
                    attribution: "Image from \(folder)")
    }

    static func describeSize(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1 << 20 { return (Double(bytes) / 1024).fixed(1) + " KB" }
        return (Double(bytes) / Double(1 << 20)).fixed(1) + " MB"
    }

    static func describeDate(_ date: Date) -> String {
        date.localTimestamp
    }
}
