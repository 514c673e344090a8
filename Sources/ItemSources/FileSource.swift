import FoundationEssentials
import Items
import LocalFiles

/// One image file named on the command line (`thumbtable photo.jpg`): a list of that one item, as a folder's row
/// shows it (size, pixel dimensions, format, modified time).
public struct FileSource: ItemSource {
    public let name: String
    public let attribution: String
    public let path: LocalPath

    public var firstPage: PageCursor { .offset(0) }
    public var origin: ItemOrigin { .local }

    /// The file at `path`; anything but a regular file is an error naming it.
    public init(path: LocalPath) throws(ItemSourceError) {
        switch LocalFile.kind(of: path) {
        case .regular: break
        case .missing: throw ItemSourceError("\(path) does not exist")
        case let other: throw ItemSourceError("\(path) is not a file: it is \(other)")
        }
        self.path = path
        let name = LocalPath(bytes: path.lastComponent).description
        self.name = name
        attribution = "Image from \(path)"
    }

    public func page(at cursor: PageCursor) async throws -> ItemPage {
        let slash = path.bytes.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { LocalPath(bytes: $0 == 0 ? [UInt8(ascii: "/")] : Array(path.bytes[..<$0])) }
            ?? LocalPath(".")
        let item = FolderSource.fileItem(at: path, title: name, id: path.fileURL.absoluteString, folder: folder)
        return ItemPage(items: [item], next: nil, totalCount: 1)
    }
}
