#if canImport(Glibc)
import Glibc
#endif

/// One line of piped input, as `LineSplitter` cut it.
enum InputLine: Sendable, Equatable {
    /// A line's bytes exactly as read, without its line end ("\n", or "\r\n"); never empty. `number` counts from 1,
    /// empty lines included, as an editor numbers them.
    case text(number: Int, bytes: [UInt8])
    /// A line longer than the ceiling: only its length is kept, so a 100 MB line with no newline costs no more memory
    /// than the ceiling.
    case tooLong(number: Int, length: Int)
}

/// Cuts bytes into lines as they arrive from a pipe, in chunks that may end in the middle of a line.
///
/// Lines end at "\n"; a "\r" before it is taken as part of the line end (a list written on Windows). Empty lines are
/// skipped. The last line may lack its "\n" (`finish`). Any other byte, NUL and invalid UTF-8 included, stays in the
/// line: what it means is for the reader of the line to say, or for `accepts`, which may leave a line out.
struct LineSplitter {
    /// The longest line kept, in bytes (without its line end).
    let ceiling: Int
    /// Says whether a line is kept; nil keeps every line.
    let accepts: ((UnsafeRawBufferPointer) -> Bool)?
    /// The current line's bytes so far, while it is within the ceiling.
    private var partial: [UInt8] = []
    /// The current line's length so far, kept or not.
    private var partialLength = 0
    /// Lines ended so far, empty ones included.
    private(set) var lineNumber = 0
    /// Lines that `accepts` left out.
    private(set) var refused = 0

    /// One megabyte: far more than any path or JSON record, far less than a 100 MB line of garbage.
    static let defaultCeiling = 1 << 20

    init(ceiling: Int = defaultCeiling, accepts: ((UnsafeRawBufferPointer) -> Bool)? = nil) {
        self.ceiling = max(1, ceiling)
        self.accepts = accepts
    }

    /// Adds the lines `chunk` ends to `lines`, and keeps the start of the line it leaves open.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, into lines: inout InputLines) {
        guard let base = chunk.baseAddress else { return }
        var start = 0
        while start < chunk.count {
            // memchr: the search for the line end is most of the work on a long input.
            let found = memchr(base + start, Int32(UInt8(ascii: "\n")), chunk.count - start)
            let end = found.map { base.distance(to: UnsafeRawPointer($0)) } ?? chunk.count
            let piece = UnsafeRawBufferPointer(rebasing: chunk[start..<end])
            guard found != nil else { return take(piece) }
            if partialLength == 0 {
                // A line whole in the chunk goes from it to `lines` without a copy of its own.
                lineNumber += 1
                keep(piece, length: piece.count, into: &lines)
            } else {
                take(piece)
                endLine(into: &lines)
            }
            start = end + 1
        }
    }

    /// Adds the last line when the input ended without a line end.
    mutating func finish(into lines: inout InputLines) {
        if partialLength > 0 { endLine(into: &lines) }
    }

    private mutating func take(_ bytes: UnsafeRawBufferPointer) {
        partialLength += bytes.count
        if partialLength <= ceiling {
            partial.append(contentsOf: bytes)
        } else if !partial.isEmpty {
            partial = []
        }
    }

    private mutating func endLine(into lines: inout InputLines) {
        lineNumber += 1
        // Out of `self` while `keep` runs (a mutating method), and back with its room for the next line.
        var line: [UInt8] = []
        swap(&line, &partial)
        line.withUnsafeBytes { keep($0, length: partialLength, into: &lines) }
        line.removeAll(keepingCapacity: true)
        partial = line
        partialLength = 0
    }

    /// Adds line `lineNumber`, whose bytes are `line` when it is within the ceiling.
    private mutating func keep(_ line: UnsafeRawBufferPointer, length: Int, into lines: inout InputLines) {
        if length > ceiling {
            return lines.appendTooLong(number: lineNumber, length: length)
        }
        let text = line.last == UInt8(ascii: "\r") ? UnsafeRawBufferPointer(rebasing: line.dropLast()) : line
        guard !text.isEmpty else { return }
        if let accepts, !accepts(text) {
            refused += 1
            return
        }
        lines.append(text, number: lineNumber)
    }
}
