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
/// line: what it means is for the reader of the line to say.
struct LineSplitter {
    /// The longest line kept, in bytes (without its line end).
    let ceiling: Int
    /// The current line's bytes so far, while it is within the ceiling.
    private var partial: [UInt8] = []
    /// The current line's length so far, kept or not.
    private var partialLength = 0
    /// Lines ended so far, empty ones included.
    private(set) var lineNumber = 0

    /// One megabyte: far more than any path or JSON record, far less than a 100 MB line of garbage.
    static let defaultCeiling = 1 << 20

    init(ceiling: Int = defaultCeiling) {
        self.ceiling = max(1, ceiling)
    }

    /// Adds the lines `chunk` ends to `lines`, and keeps the start of the line it leaves open.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, into lines: inout [InputLine]) {
        guard let base = chunk.baseAddress else { return }
        var start = 0
        while start < chunk.count {
            // memchr: the search for the line end is most of the work on a long input.
            let found = memchr(base + start, Int32(UInt8(ascii: "\n")), chunk.count - start)
            let end = found.map { base.distance(to: UnsafeRawPointer($0)) } ?? chunk.count
            take(UnsafeRawBufferPointer(rebasing: chunk[start..<end]))
            guard found != nil else { return }
            endLine(into: &lines)
            start = end + 1
        }
    }

    /// Adds the last line when the input ended without a line end.
    mutating func finish(into lines: inout [InputLine]) {
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

    private mutating func endLine(into lines: inout [InputLine]) {
        lineNumber += 1
        defer {
            partial.removeAll(keepingCapacity: true)
            partialLength = 0
        }
        if partialLength > ceiling {
            lines.append(.tooLong(number: lineNumber, length: partialLength))
            return
        }
        if partial.last == UInt8(ascii: "\r") { partial.removeLast() }
        if !partial.isEmpty { lines.append(.text(number: lineNumber, bytes: partial)) }
    }
}
