/// The lines of piped input, kept as their bytes in large chunks with an offset a line: a million paths cost their
/// bytes and eight more a line, not an array each. A line becomes an `InputLine` only when a page asks for it.
///
/// The splitter fills a small `InputLines` for each read; the listing appends it to the whole (`add`), which copies
/// its bytes into the last chunk while that has room.
struct InputLines: ListingStore {
    /// Lines whose bytes lie one after the other in `bytes`.
    struct Chunk: Sendable {
        var bytes: [UInt8] = []
        /// Where each line ends in `bytes`; a line starts where the one before it ends.
        var ends: [UInt32] = []
        /// Each line's number less `firstNumber` (a line number counts the empty lines skipped).
        var numbers: [UInt32] = []
        /// The line number that `numbers` count from.
        var firstNumber: Int
        /// The index of its first line among all the lines.
        var firstIndex: Int
    }

    private(set) var chunks: [Chunk] = []
    /// How many lines there are, those left out for their length included.
    private(set) var count = 0
    /// The lines left out for their length, by index, with their length; their bytes are not kept.
    private var tooLong: [Int: Int] = [:]

    /// The bytes a chunk is given room for: a copy into it never moves what it holds.
    static let chunkCapacity = 1 << 20

    init() {}

    /// Adds a line's bytes (without its line end).
    mutating func append(_ line: UnsafeRawBufferPointer, number: Int) {
        if chunks.isEmpty || !Self.fits(number: number, bytes: line.count, in: chunks[chunks.count - 1]) {
            var chunk = Chunk(firstNumber: number, firstIndex: count)
            chunk.bytes.reserveCapacity(max(Self.chunkCapacity, line.count))
            chunks.append(chunk)
        }
        let last = chunks.count - 1
        if chunks[last].ends.isEmpty {
            // A chunk emptied by `removeAll` counts from its first line again.
            chunks[last].firstNumber = number
            chunks[last].firstIndex = count
        }
        chunks[last].bytes.append(contentsOf: line)
        chunks[last].ends.append(UInt32(chunks[last].bytes.count))
        chunks[last].numbers.append(UInt32(number - chunks[last].firstNumber))
        count += 1
    }

    /// Adds a line left out because it is `length` bytes long.
    mutating func appendTooLong(number: Int, length: Int) {
        tooLong[count] = length
        append(UnsafeRawBufferPointer(start: nil, count: 0), number: number)
    }

    /// Whether a line fits in `chunk`: its bytes in the room left, its number within reach of `firstNumber`.
    private static func fits(number: Int, bytes: Int, in chunk: Chunk) -> Bool {
        chunk.bytes.count + bytes <= max(chunkCapacity, chunk.bytes.capacity)
            && number - chunk.firstNumber <= Int(UInt32.max)
    }

    /// Appends `batch`'s lines after these: a chunk at a time while the last chunk has room for it.
    mutating func add(_ batch: InputLines) {
        for (index, length) in batch.tooLong { tooLong[count + index] = length }
        for chunk in batch.chunks {
            guard let lastNumber = chunk.numbers.last.map({ chunk.firstNumber + Int($0) }), !chunks.isEmpty,
                  Self.fits(number: lastNumber, bytes: chunk.bytes.count, in: chunks[chunks.count - 1]) else {
                addLines(of: chunk)
                continue
            }
            let last = chunks.count - 1, offset = UInt32(chunks[last].bytes.count)
            let renumbered = UInt32(chunk.firstNumber - chunks[last].firstNumber)
            chunks[last].bytes.append(contentsOf: chunk.bytes)
            chunks[last].ends.append(contentsOf: chunk.ends.lazy.map { $0 + offset })
            chunks[last].numbers.append(contentsOf: chunk.numbers.lazy.map { $0 + renumbered })
            count += chunk.ends.count
        }
    }

    /// Appends `chunk`'s lines one at a time, starting a chunk where the last one has no room.
    private mutating func addLines(of chunk: Chunk) {
        chunk.bytes.withUnsafeBytes { bytes in
            for line in 0..<chunk.ends.count {
                let range = Self.start(of: line, in: chunk)..<Int(chunk.ends[line])
                let number = chunk.firstNumber + Int(chunk.numbers[line])
                append(UnsafeRawBufferPointer(rebasing: bytes[range]), number: number)
            }
        }
    }

    /// Empties the lines and keeps the first chunk's room: a reader's batch, used again for each read.
    mutating func removeAll() {
        guard var first = chunks.first else { return }
        // The only reference to the first chunk's buffers is then `first`: emptied in place, not copied.
        chunks = []
        first.bytes.removeAll(keepingCapacity: true)
        first.ends.removeAll(keepingCapacity: true)
        first.numbers.removeAll(keepingCapacity: true)
        chunks = [first]
        count = 0
        tooLong = [:]
    }

    private static func start(of line: Int, in chunk: Chunk) -> Int {
        line == 0 ? 0 : Int(chunk.ends[line - 1])
    }

    /// The line at `index`.
    subscript(index: Int) -> InputLine {
        let chunkIndex = chunkIndex(of: index)
        let chunk = chunks[chunkIndex], line = index - chunk.firstIndex
        let number = chunk.firstNumber + Int(chunk.numbers[line])
        if let length = tooLong[index] { return .tooLong(number: number, length: length) }
        return .text(number: number, bytes: Array(chunk.bytes[Self.start(of: line, in: chunk)..<Int(chunk.ends[line])]))
    }

    func elements(_ range: Range<Int>) -> [InputLine] {
        range.map { self[$0] }
    }

    /// The chunk that holds the line at `index`: the last one starting at or before it.
    private func chunkIndex(of index: Int) -> Int {
        var low = 0, high = chunks.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if chunks[middle].firstIndex <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
