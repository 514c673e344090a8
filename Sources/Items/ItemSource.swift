/// Turns a place (an API, a folder, the bundled demo) into pages of items.
public protocol ItemSource: Sendable {
    /// What the header names ("Demo catalog", "SWAPI species").
    var name: String { get }
    /// The footer's credit for the whole list ("All images from ...").
    var attribution: String { get }
    /// The first page's cursor.
    var firstPage: PageCursor { get }
    /// Loads one page. Throws an `ItemSourceError` a user can read.
    func page(at cursor: PageCursor) async throws -> ItemPage
    /// Where the items and their links come from. Only a local source's items may name `file:` URLs: a server's
    /// pages, headers and redirects may only point at http and https.
    var origin: ItemOrigin { get }
    /// Looks up an item's picture again, for a row whose lookup failed (the `r` key): the item as it is now, or
    /// nil when the source has no lookup to repeat.
    func refreshImage(of item: Item) async -> Item?
    /// For a source that counts its items as it finds them (a folder being walked): the count now, read without
    /// waiting, so the header can follow it between pages. Nil for a source that does not.
    func countSoFar() -> ItemCount?
    /// For a source that counts: waits `interval`, or less when the count becomes final first, so a header that
    /// follows the count shows the final one at once. Returns false when the waiting task was cancelled.
    func waitForCount(upTo interval: Duration) async -> Bool
}

/// How many items a source has found, and whether it is still finding more.
public struct ItemCount: Sendable, Equatable {
    public var total: Int
    public var stillCounting: Bool

    public init(total: Int, stillCounting: Bool) {
        self.total = total
        self.stillCounting = stillCounting
    }
}

extension ItemSource {
    public func refreshImage(of item: Item) async -> Item? { nil }
    public func countSoFar() -> ItemCount? { nil }
    public func waitForCount(upTo interval: Duration) async -> Bool {
        (try? await Task.sleep(for: interval)) != nil
    }
    public var origin: ItemOrigin { .remote }
}

/// Where a source's items come from, and so which URLs their images may have.
public enum ItemOrigin: Sendable, Equatable {
    /// From this machine (a folder the user named): `file:` URLs.
    case local
    /// From a server (an API, the demo server): http and https only.
    case remote
}

/// Why a page could not be loaded, in words a user can act on.
public struct ItemSourceError: Error, Sendable, CustomStringConvertible, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
