import Items
#if canImport(Glibc)
import Glibc
#endif

/// Reads an `ItemStreamSource`'s input to its end, on the thread the source started for it, into its listing: each
/// chunk's lines are listed as soon as they are read, in one step, so a page sees them at once.
struct ItemStreamReader: Sendable {
    let descriptor: Int32
    let listing: GrowingListing<ItemStreamSource.Entries>
    let lineCeiling: Int

    /// What one `read` asks for: as much as a pipe holds.
    static let chunkSize = 1 << 16

    /// Lists the input's lines until it ends, a read fails, or the source is let go. With `onlyJSON`, a line that
    /// is not JSON is left out and counted.
    func readLines(onlyJSON: Bool = false) {
        var splitter = LineSplitter(ceiling: lineCeiling)
        if onlyJSON { splitter = LineSplitter(ceiling: lineCeiling) { Self.isJSON($0) } }
        var lines = InputLines(), refused = 0
        let ending = readChunks { chunk in
            splitter.feed(chunk, into: &lines)
            listing.list(ItemStreamSource.Entries(lines: lines, notJSON: splitter.refused - refused))
            refused = splitter.refused
            lines.removeAll()
            return true
        }
        splitter.finish(into: &lines)
        finish(ending, listing: ItemStreamSource.Entries(lines: lines, notJSON: splitter.refused - refused))
    }

    /// Whether a line is one JSON value.
    static func isJSON(_ line: UnsafeRawBufferPointer) -> Bool {
        do {
            _ = try JSONPageReader.read(Array(line))
            return true
        } catch {
            return false
        }
    }

    /// Reads the whole input as one JSON document and lists the items at `keyPaths.items`, or a row saying why
    /// there are none.
    func readDocument(keyPaths: JSONAPISource.KeyPaths) {
        var bytes: [UInt8] = []
        var tooLarge = false
        let ending = readChunks { chunk in
            bytes.append(contentsOf: chunk)
            tooLarge = bytes.count > ItemStreamSource.documentCeiling
            return !tooLarge
        }
        if tooLarge {
            let ceiling = ItemStreamSource.documentCeiling >> 20
            let tooLarge = ItemStreamSource.Entry.problem("the JSON document is larger than \(ceiling) MB: not read")
            return finish(ending, listing: .init(tail: [tooLarge]))
        }
        finish(ending, listing: .init(tail: Self.items(of: bytes, keyPaths: keyPaths)))
    }

    /// A document's items, or the problem that left it without any.
    static func items(of bytes: [UInt8], keyPaths: JSONAPISource.KeyPaths) -> [ItemStreamSource.Entry] {
        guard !bytes.isEmpty else { return [] }
        let read: JSONPageReader.Result
        do {
            read = try JSONPageReader.read(bytes, limits: documentLimits)
        } catch {
            return [.problem("the input is not JSON (\(error)): \(PageFetcher.snippet(bytes))")]
        }
        guard let found = JSONAPISource.value(at: keyPaths.items, in: read.value) else {
            return [.problem("the JSON document has no \"\(keyPaths.items)\" (the --items key path)")]
        }
        guard let list = found as? [Any] else {
            return [.problem("\"\(keyPaths.items)\" in the JSON document is \(PageFetcher.kind(found)), not a list")]
        }
        let items: [ItemStreamSource.Entry] = list.enumerated().map { offset, element in
            .made(JSONAPISource.item(element, keyPaths: keyPaths, id: "item \(offset + 1)", linksAgainst: nil))
        }
        return items + (read.note.map { [.problem("the JSON document was cut: \($0)")] } ?? [])
    }

    /// A list from a pipe may be long: more than a server's page may hold.
    static let documentLimits = JSONPageReader.Limits(maxElements: 1_000_000, maxValues: 20_000_000)

    /// How reading ended.
    enum Ending {
        /// At the end of the input, or when `body` said it had enough.
        case complete
        case stopped
        case failed(String)
    }

    /// Calls `body` with each chunk read until the input ends, `body` returns false, a read fails, or the source is
    /// let go. A read interrupted by a signal is asked again.
    private func readChunks(_ body: (UnsafeRawBufferPointer) -> Bool) -> Ending {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while !listing.stopRequested {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                return .failed("reading the input failed: \(String(cString: strerror(errno)))")
            }
            if count == 0 || !body(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { return .complete }
        }
        return .stopped
    }

    private func finish(_ ending: Ending, listing last: ItemStreamSource.Entries) {
        switch ending {
        case .complete: listing.finish(.complete, listing: last)
        case .stopped: listing.finish(.stopped, listing: last)
        case .failed(let reason):
            var last = last
            last.tail.append(.problem(reason))
            listing.finish(.complete, listing: last)
        }
    }
}
