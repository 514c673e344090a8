@testable import ItemSources
import Testing

/// The store of piped lines: lines kept as bytes in chunks come back as they went in, across chunks and batches, with
/// their numbers and the lines left out for their length.
@Suite struct InputLinesTests {
    /// A batch of `count` lines "line N" numbered from `first`, every third one left out for its length.
    static func batch(from first: Int, count: Int) -> InputLines {
        var lines = InputLines()
        for number in first..<(first + count) {
            if number % 3 == 0 {
                lines.appendTooLong(number: number, length: number * 1000)
            } else {
                Array("line \(number)".utf8).withUnsafeBytes { lines.append($0, number: number) }
            }
        }
        return lines
    }

    static func expected(_ numbers: Range<Int>) -> [InputLine] {
        numbers.map {
            $0 % 3 == 0 ? .tooLong(number: $0, length: $0 * 1000) : .text(number: $0, bytes: Array("line \($0)".utf8))
        }
    }

    @Test func batchesAddedOneAfterTheOtherComeBackInOrderWithTheirNumbers() {
        var all = InputLines()
        var batch = InputLines()
        var first = 1
        for size in [1, 7, 0, 250, 3] {
            batch.removeAll()
            batch.add(Self.batch(from: first, count: size))
            all.add(batch)
            first += size
        }
        #expect(all.count == first - 1)
        #expect(all.elements(0..<all.count) == Self.expected(1..<first))
        #expect(all.elements(5..<9) == Self.expected(6..<10))
    }

    @Test func linesBeyondAChunksRoomStartAnotherChunkAndAreFoundInIt() {
        var all = InputLines()
        // Enough 1 KB lines for three chunks, added in batches of 100.
        let line = [UInt8](repeating: 0x61, count: 1024)
        let total = 3 * InputLines.chunkCapacity / 1024
        var number = 1
        while number <= total {
            var batch = InputLines()
            for _ in 0..<100 where number <= total {
                line.withUnsafeBytes { batch.append($0, number: number * 2) }
                number += 1
            }
            all.add(batch)
        }
        #expect(all.chunks.count >= 3)
        #expect(all.count == total)
        for index in [0, 1023, 1024, 1025, total / 2, total - 1] {
            #expect(all[index] == .text(number: (index + 1) * 2, bytes: line), "line \(index)")
        }
    }
}
