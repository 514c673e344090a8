import Basics
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
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp"]

    public let name: String
    public let attribution: String
    public let directory: LocalPath
    public let recursive: Bool
    public let pageSize: Int
    /// Paths relative to `directory`, as bytes, sorted by their shown names.
    public let files: [[UInt8]]

    public var firstPage: PageCursor { .offset(0) }
    public var origin: ItemOrigin { .local }

    /// Lists the folder now; a folder that cannot be read is an error naming it.
    public init(directory: URL, recursive: Bool = false, pageSize: Int = 50) throws(ItemSourceError) {
        let path = LocalPath(fileURL: directory) ?? LocalPath(directory.path)
        try self.init(path: path, recursive: recursive, pageSize: pageSize)
    }

    public init(path: LocalPath, recursive: Bool = false, pageSize: Int = 50) throws(ItemSourceError) {
        switch LocalFile.kind(of: path) {
        case .directory: break
        case .missing: throw ItemSourceError("\(path) does not exist")
        case let other: throw ItemSourceError("\(path) is not a folder: it is \(other)")
        }
        directory = path
        self.recursive = recursive
        self.pageSize = max(1, pageSize)
        var found: [[UInt8]] = []
        try Self.list(path, prefix: [], recursive: recursive, into: &found)
        let keyed = found.map { (key: LocalPath.init(bytes: $0).description, bytes: $0) }
        files = keyed.sorted { $0.key.lowercased() < $1.key.lowercased() } // TEMP-LEAN: natural order comes with h-folder
            .map(\.bytes)
        let shown = path.description
        let last = shown.split(separator: "/").last.map(String.init) ?? shown
        name = "Folder · \(last)" + (recursive ? " (and below)" : "")
        attribution = "All images from your files in \(shown)"
    }

    /// Adds the image names in `folder` (and below it) to `found`, as paths relative to the listed folder. Hidden
    /// entries are skipped; symlinks to folders are not followed (they could loop).
    private static func list(_ folder: LocalPath, prefix: [UInt8], recursive: Bool, into found: inout [[UInt8]])
        throws(ItemSourceError)
    {
        guard let stream = folder.withCString({ opendir($0) }) else {
            let reason = String(cString: strerror(errno))
            if prefix.isEmpty { throw ItemSourceError("cannot list the folder \(folder): \(reason)") }
            return  // a folder below that cannot be read is left out, as `find` would report and go on
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix(while: { $0 != 0 }))
            }
            guard let first = name.first, first != UInt8(ascii: ".") else { continue }
            let relative = prefix.isEmpty ? name : prefix + [UInt8(ascii: "/")] + name
            let type = entry.pointee.d_type
            if recursive, type == UInt8(DT_DIR) {
                try list(folder.appending(name), prefix: relative, recursive: true, into: &found)
            } else if recursive, type == UInt8(DT_UNKNOWN), case .directory = LocalFile.kind(of: folder.appending(name)) {
                try list(folder.appending(name), prefix: relative, recursive: true, into: &found)
            } else if type != UInt8(DT_DIR), hasImageExtension(name) {
                found.append(relative)
            }
        }
    }

    static func hasImageExtension(_ name: [UInt8]) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > name.startIndex else { return false }
        let suffix = String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
        return imageExtensions.contains(suffix)
    }

    public func page(at cursor: PageCursor) async throws -> ItemPage {
        guard case .offset(let start) = cursor, start >= 0 else {
            throw ItemSourceError("a folder's pages are offsets, not \(cursor)")
        }
        guard !files.isEmpty else {
            return ItemPage(items: [], next: nil, totalCount: 0, notes: [
                "\(directory) is empty: it has no images (.jpg, .jpeg, .png, .gif, .webp)"
                    + (recursive ? " in it or below it" : "; --recursive also looks in the folders below it"),
            ])
        }
        guard start < files.count else {
            throw ItemSourceError("\(directory) has \(files.count) images: offset \(start) is past the end")
        }
        let end = min(files.count, start + pageSize)
        let names = Array(files[start..<end])
        // Reading sizes and headers is file system work: off the cooperative pool.
        let items = await BlockingIO.run { names.map(item) }
        return ItemPage(items: items, next: end < files.count ? .offset(end) : nil, totalCount: files.count)
    }

    func item(_ relativePath: [UInt8]) -> Item {
        let path = directory.appending(relativePath)
        let shownName = LocalPath(bytes: relativePath).description
        var fields = [Item.Field("File", path.description)]
        let folderBytes = relativePath.lastIndex(of: UInt8(ascii: "/")).map { Array(relativePath[..<$0]) }
        let folder = folderBytes.map { directory.appending($0) } ?? directory
        let id = path.fileURL.absoluteString
        let (kind, modified) = LocalFile.status(of: path)
        guard case .regular(let bytes) = kind else {
            fields.append(Item.Field("Kind", "not a regular file: it is \(kind); ThumbTable does not open it"))
            return Item(id: id, title: shownName, subtitle: "not a regular file (\(kind))", fields: fields,
                        imageURL: nil, attribution: nil)
        }
        let info = (try? LocalFile.readPrefix(path, count: ImageFileInfo.headerLimit)).flatMap(ImageFileInfo.parse)
        fields.append(Item.Field("Size", Self.describeSize(bytes)))
        fields.append(Item.Field("Pixel dimensions", info.map { "\($0.width) x \($0.height)" } ?? "unknown"))
        fields.append(Item.Field("Format", info?.format ?? "not a JPEG, PNG, GIF or WebP the header says"))
        fields.append(Item.Field("Modified", modified.map(Self.describeDate) ?? "unknown"))
        let subtitle = [info?.format ?? "unknown format", info.map { "\($0.width)x\($0.height)" },
                        Self.describeSize(bytes)].compactMap { $0 }.joined(separator: " · ")
        return Item(id: id, title: shownName, subtitle: subtitle, fields: fields, imageURL: path.fileURL,
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
