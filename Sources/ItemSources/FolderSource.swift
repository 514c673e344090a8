import Foundation
import Items

/// The images in a folder (and below it, when recursive), sorted by name, as pages of rows whose detail pane shows
/// each file's size, pixel dimensions, format and modified time.
public struct FolderSource: ItemSource {
    /// The file extensions listed, lower-cased.
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp"]

    public let name: String
    public let attribution: String
    public let directory: URL
    public let recursive: Bool
    public let pageSize: Int
    /// Paths relative to `directory`, sorted.
    public let files: [String]

    public var firstPage: PageCursor { .offset(0) }

    /// Lists the folder now; a folder that cannot be read is an error naming it.
    public init(directory: URL, recursive: Bool = false, pageSize: Int = 50) throws(ItemSourceError) {
        let directory = directory.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            throw ItemSourceError("\(directory.path) does not exist")
        }
        guard isDirectory.boolValue else { throw ItemSourceError("\(directory.path) is not a folder") }
        self.directory = directory
        self.recursive = recursive
        self.pageSize = max(1, pageSize)
        var found: [String] = []
        if recursive {
            guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey],
                                                               options: [.skipsHiddenFiles]) else {
                throw ItemSourceError("cannot list the folder \(directory.path)")
            }
            let prefix = directory.path.hasSuffix("/") ? directory.path : directory.path + "/"
            for case let url as URL in walker where Self.imageExtensions.contains(url.pathExtension.lowercased()) {
                let path = url.standardizedFileURL.path
                if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true, path.hasPrefix(prefix) {
                    found.append(String(path.dropFirst(prefix.count)))
                }
            }
        } else {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            } catch {
                throw ItemSourceError("cannot list the folder \(directory.path): \(error.localizedDescription)")
            }
            found = names.filter { name in
                guard !name.hasPrefix("."), Self.imageExtensions.contains((name as NSString).pathExtension.lowercased())
                else { return false }
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path,
                                                      isDirectory: &isFolder) && !isFolder.boolValue
            }
        }
        files = found.sorted { $0.compare($1, options: [.numeric, .caseInsensitive]) == .orderedAscending }
        name = "Folder · \(directory.lastPathComponent)" + (recursive ? " (and below)" : "")
        attribution = "All images from your files in \(directory.path)"
    }

    public func page(at cursor: PageCursor) async throws -> ItemPage {
        guard case .offset(let start) = cursor, start >= 0 else {
            throw ItemSourceError("a folder's pages are offsets, not \(cursor)")
        }
        guard !files.isEmpty else {
            throw ItemSourceError("\(directory.path) has no images (.jpg, .jpeg, .png, .gif, .webp)"
                                  + (recursive ? "" : "; --recursive also looks in the folders below it"))
        }
        guard start < files.count else {
            throw ItemSourceError("\(directory.path) has \(files.count) images: offset \(start) is past the end")
        }
        let end = min(files.count, start + pageSize)
        let items = files[start..<end].map(item)
        return ItemPage(items: items, next: end < files.count ? .offset(end) : nil, totalCount: files.count)
    }

    func item(_ relativePath: String) -> Item {
        let url = directory.appendingPathComponent(relativePath)
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let bytes = (attributes?[.size] as? NSNumber)?.intValue
        let modified = attributes?[.modificationDate] as? Date
        let info = ImageFileInfo.read(url)
        var fields = [Item.Field("File", url.path)]
        fields.append(Item.Field("Size", bytes.map(Self.describeSize) ?? "unknown"))
        fields.append(Item.Field("Pixel dimensions", info.map { "\($0.width) x \($0.height)" } ?? "unknown"))
        fields.append(Item.Field("Format", info?.format ?? "not a JPEG, PNG, GIF or WebP the header says"))
        fields.append(Item.Field("Modified", modified.map(Self.describeDate) ?? "unknown"))
        let subtitle = [info?.format ?? "unknown format", info.map { "\($0.width)x\($0.height)" },
                        bytes.map(Self.describeSize)].compactMap { $0 }.joined(separator: " · ")
        let folder = (relativePath as NSString).deletingLastPathComponent
        return Item(id: url.path, title: relativePath, subtitle: subtitle, fields: fields, imageURL: url,
                    attribution: "Image from \(folder.isEmpty ? directory.path : directory.appendingPathComponent(folder).path)")
    }

    static func describeSize(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1 << 20 { return String(format: "%.1f KB", Double(bytes) / 1024) }
        return String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }

    static func describeDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }
}
