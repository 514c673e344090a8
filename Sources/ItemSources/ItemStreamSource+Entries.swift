import Items

extension ItemStreamSource {
    /// One thing read from the input, waiting for a page to make it a row.
    enum Entry: Sendable {
        case line(InputLine)
        /// A row made already: a JSON document's items are made when the document is whole.
        case made(Item)
        /// Why the input could not be read to its end (a read error, a document that is too large or not JSON).
        case problem(String)
    }

    /// What the input has given so far: its lines, kept as bytes (`InputLines`), then what came at the end (a
    /// document's items, a read error), and how many JSON lines were skipped for not being JSON.
    struct Entries: ListingStore {
        var lines = InputLines()
        /// Entries after the last line: the reader adds them when the input ends.
        var tail: [Entry] = []
        /// JSON lines left out because they are not JSON.
        var notJSON = 0

        init() {}

        init(lines: InputLines = InputLines(), tail: [Entry] = [], notJSON: Int = 0) {
            self.lines = lines
            self.tail = tail
            self.notJSON = notJSON
        }

        var count: Int { lines.count + tail.count }

        mutating func add(_ batch: Entries) {
            lines.add(batch.lines)
            tail += batch.tail
            notJSON += batch.notJSON
        }

        func elements(_ range: Range<Int>) -> [Entry] {
            range.map { $0 < lines.count ? .line(lines[$0]) : tail[$0 - lines.count] }
        }
    }
}
