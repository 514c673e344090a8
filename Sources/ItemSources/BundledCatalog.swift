import Foundation
import Items

/// The demo catalog bundled in `Resources/demo`: real photos with their credits, served page by page after a
/// simulated network delay so rows arrive asynchronously, as they would from an API.
public struct BundledCatalog: ItemSource {
    public let name: String
    public let attribution: String
    public let pageSize: Int
    /// How long a page takes to "arrive".
    public let pageDelay: Duration
    private let items: [Item]

    public var firstPage: PageCursor { .number(1) }

    /// Reads `catalog.json` from a folder; image paths in it are relative to that folder.
    public init(directory: URL, pageDelay: Duration = .milliseconds(300)) throws(ItemSourceError) {
        let file = directory.appendingPathComponent("catalog.json")
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ItemSourceError("cannot read the demo catalog at \(file.path): \(error.localizedDescription)")
        }
        let catalog: CatalogFile
        do {
            catalog = try JSONDecoder().decode(CatalogFile.self, from: data)
        } catch {
            throw ItemSourceError("the demo catalog \(file.path) is not valid: \(error)")
        }
        name = catalog.name
        attribution = catalog.attribution
        pageSize = max(1, catalog.pageSize)
        self.pageDelay = pageDelay
        items = catalog.items.map { entry in
            let image = entry.image.map { directory.appendingPathComponent($0) }
            return Item(id: entry.id, title: entry.title, subtitle: entry.subtitle ?? "",
                        fields: (entry.fields ?? []).compactMap { $0.count == 2 ? Item.Field($0[0], $0[1]) : nil },
                        imageURL: image, thumbnailURL: entry.thumbnail.map { directory.appendingPathComponent($0) },
                        attribution: entry.attribution)
        }
    }

    public func page(at cursor: PageCursor) async throws -> ItemPage {
        guard case .number(let number) = cursor, number >= 1 else {
            throw ItemSourceError("the demo catalog has no page \(cursor)")
        }
        try await Task.sleep(for: pageDelay)
        let start = (number - 1) * pageSize
        guard start < items.count || (start == 0 && items.isEmpty) else {
            throw ItemSourceError("the demo catalog has \(items.count) items: page \(number) is past the end")
        }
        let end = min(items.count, start + pageSize)
        return ItemPage(items: Array(items[start..<end]), next: end < items.count ? .number(number + 1) : nil,
                        totalCount: items.count)
    }

    private struct CatalogFile: Decodable {
        var name: String
        var attribution: String
        var pageSize: Int
        var items: [Entry]
        struct Entry: Decodable {
            var id: String
            var title: String
            var subtitle: String?
            var fields: [[String]]?
            var image: String?
            var thumbnail: String?
            var attribution: String?
        }
    }
}
