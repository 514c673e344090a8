import Basics
import FoundationEssentials
import Items
import LocalFiles
#if canImport(Glibc)
import Glibc
#endif

/// Items read from a file descriptor (stdin, for a picker fed by a pipe), shown as they arrive: a file path or an
/// http(s) image URL a line, one JSON object a line, or the list in one JSON document.
///
/// The input is read on a thread of its own, so a pipe that is slow or never ends holds up no key and no frame. A
/// page waits only for its first row and takes what has arrived, up to `pageSize`; while the input is open the
/// page's total is the count so far and there is always a next page, and `countSoFar()` lets the header follow the
/// count between pages. When the input ends, the total is final.
///
/// Nothing is dropped without a row that says why: a line that is neither an existing file nor an http(s) URL, a
/// line longer than the ceiling, and a read error are rows without a picture whose subtitle and detail pane say what
/// was wrong. Empty lines are skipped, and so are JSON lines that are not JSON, counted (`skippedNote`, in each
/// page's notes). The row of a line keeps the line's
/// exact bytes (`Item.inputLine`); its title is the line as text with invalid UTF-8 replaced by U+FFFD (control
/// characters are escaped by the screen, as every title's are).
public struct ItemStreamSource: ItemSource {
    /// What the input holds.
    public enum Format: Sendable {
        /// A file path (relative to the working folder, or absolute) or an http(s) image URL a line. A path is the
        /// user's own data: it is read like a file in a folder the user named.
        case lines
        /// One JSON value a line, read by the key paths `title`, `subtitle`, `image`, `thumbnail` and `page` as
        /// `browse` reads an API's items (`items` is not used). Links must be absolute http(s) URLs.
        case jsonLines(JSONAPISource.KeyPaths)
        /// One JSON document, read when the input ends: its items are the list at `items`.
        case jsonDocument(JSONAPISource.KeyPaths)

        var isJSONLines: Bool {
            if case .jsonLines = self { true } else { false }
        }
    }

    /// The longest line read, in bytes: one megabyte, far more than a path or a JSON record needs.
    public static let lineCeiling = 1 << 20
    /// The largest JSON document read (`.jsonDocument`), as for a page from a server.
    public static let documentCeiling = PageFetcher.maxBytes

    public let name: String
    public let attribution: String
    public let format: Format
    public let pageSize: Int
    /// The longest line kept, in bytes.
    public let lineCeiling: Int
    /// What relative paths are relative to: the working folder when the source was made.
    let workingFolder: LocalPath
    let listing: GrowingListing<Entries>
    /// Stops the reader when the last copy of this source is let go.
    private let readerOwner: ReaderOwner

    public var firstPage: PageCursor { .offset(0) }

    /// Local when lines may be the user's paths. JSON may come from a server (`curl … | thumbtable`): its images
    /// must be http(s), as `browse`'s are.
    public var origin: ItemOrigin {
        if case .lines = format { .local } else { .remote }
    }

    /// Starts reading `descriptor` on a thread of its own, to its end. The descriptor is not closed.
    /// - Parameters:
    ///   - name: what the header calls the input.
    ///   - lineCeiling: the longest line kept; a longer one is a row saying how long it was.
    public init(reading descriptor: Int32 = STDIN_FILENO, format: Format = .lines, name: String = "stdin",
                pageSize: Int = 200, lineCeiling: Int = lineCeiling) throws(ItemSourceError) {
        self.name = name
        self.format = format
        self.pageSize = max(1, pageSize)
        self.lineCeiling = lineCeiling
        attribution = "All images from the files and links read from \(name)"
        workingFolder = Self.currentFolder()
        listing = GrowingListing()
        readerOwner = ReaderOwner(listing)
        let reader = ItemStreamReader(descriptor: descriptor, listing: listing, lineCeiling: lineCeiling)
        let started = BackgroundThread.start(name: "thumbtable-input") {
            if case .jsonDocument(let keyPaths) = format {
                reader.readDocument(keyPaths: keyPaths)
            } else {
                reader.readLines(onlyJSON: format.isJSONLines)
            }
        }
        guard started else { throw ItemSourceError("cannot start a thread to read \(name)") }
    }

    /// The working folder's bytes (a folder whose name is not UTF-8 included); "/" when it cannot be had.
    static func currentFolder() -> LocalPath {
        guard let path = getcwd(nil, 0) else { return LocalPath("/") }
        defer { free(path) }
        return LocalPath(bytes: Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(path), count: strlen(path))))
    }

    /// Tells the reader to stop when the source is let go. It stops after its next read returns: a read from a pipe
    /// that stays open and silent waits until the program ends, on a thread that holds nothing else.
    private final class ReaderOwner: Sendable {
        let listing: GrowingListing<Entries>
        init(_ listing: GrowingListing<Entries>) { self.listing = listing }
        deinit { listing.stop() }
    }

    /// The rows read from `cursor`'s offset on, once there is one (or the input has ended).
    public func page(at cursor: PageCursor) async throws -> ItemPage {
        guard case .offset(let start) = cursor, start >= 0 else {
            throw ItemSourceError("the pages of \(name) are offsets, not \(cursor)")
        }
        let window = try await listing.window(from: start, count: pageSize, atLeast: 1)
        let reading = window.end == nil
        let skipped = skippedNote.map { [$0] } ?? []
        guard window.listed > 0 || reading else {
            return ItemPage(items: [], next: nil, totalCount: 0,
                            notes: ["\(name) had no items: it was empty, or had only empty lines"] + skipped)
        }
        let entries = window.paths, source = self
        // A path's row reads the file's size and header: file system work, off the cooperative pool.
        let items = await BlockingIO.run { entries.map(source.item) }
        let end = start + entries.count
        return ItemPage(items: items, next: end < window.listed || reading ? .offset(end) : nil,
                        totalCount: window.listed, stillCounting: reading, notes: skipped)
    }

    /// How many JSON lines were left out so far for not being JSON.
    public var notJSONLines: Int {
        listing.reading { $0.notJSON }
    }

    /// What the status line and stderr say of the JSON lines left out ("2 lines not JSON, skipped"), or nil when
    /// none were.
    public var skippedNote: String? {
        let count = notJSONLines
        guard count > 0 else { return nil }
        return count == 1 ? "1 line not JSON, skipped" : "\(count) lines not JSON, skipped"
    }

    public func countSoFar() -> ItemCount? {
        listing.count
    }

    public func waitForCount(upTo interval: Duration) async -> Bool {
        await listing.waitForEnd(upTo: interval)
    }

    /// Waits until the input has ended (or the reader was stopped): for tests and a picker that must know.
    func ended() async {
        _ = await listing.ended()
    }
}
