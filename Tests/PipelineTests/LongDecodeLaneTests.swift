import Cells
import Codecs
import Dispatch
import Foundation
@testable import Pipeline
import Synchronization
import TestSupport
import Testing
import TextArt

/// Issue 24, item 3: long decodes take turns in a `LongDecodeLane`, so they never hold every thread; the rows beside
/// them, short decodes, are drawn while one runs, and a long decode whose row is gone before its turn never starts.
@Suite struct LongDecodeLaneTests: FakeLoaderPipelineTests {
    let loader = FakeDataLoader()

    /// Whether a body ran, for a task to set and the test to read.
    final class Flag: Sendable {
        private let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }

    /// How many long decodes run now, how many ever started, and the most that ever ran at once.
    final class Running: Sendable {
        private let counts = Mutex((now: 0, started: 0, most: 0))
        func start() { counts.withLock { $0.now += 1; $0.started += 1; $0.most = max($0.most, $0.now) } }
        func end() { counts.withLock { $0.now -= 1 } }
        var now: Int { counts.withLock { $0.now } }
        var started: Int { counts.withLock { $0.started } }
        var most: Int { counts.withLock { $0.most } }
    }

    @Test func longDecodesTakeTurnsShortOnesPassAndACancelledOneNeverRuns() async throws {
        let lane = LongDecodeLane(threshold: 10, width: 1)
        let (release, releasing) = AsyncStream<Void>.makeStream()
        let first = Task { try await lane.run(work: 10) { for await _ in release { break }; return 1 } }
        while lane.counts.running < 1 { await Task.yield() }

        let cancelledRan = Flag()
        let cancelled = Task { try await lane.run(work: 50) { cancelledRan.set(); return 2 } }
        while lane.counts.waiting < 1 { await Task.yield() }
        #expect(try await lane.run(work: 9) { 3 } == 3, "a short decode passes the long one running")
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(!cancelledRan.isSet, "its row is gone: it never starts")
        #expect(lane.counts.waiting == 0)

        let next = Task { try await lane.run(work: 10) { 4 } }
        while lane.counts.waiting < 1 { await Task.yield() }
        releasing.yield()
        #expect(try await first.value == 1)
        #expect(try await next.value == 4, "the turn passes to the next long decode")
        #expect(lane.counts.running == 0 && lane.counts.waiting == 0)
    }

    /// The page: long decodes and an ordinary row. The first long decode holds its thread until the row is
    /// drawn; the second waits its turn without a thread, so the row's decode always has one. Before the lane both
    /// long decodes held a thread each, every thread on a two-core machine, and the row stayed a spinner.
    @Test func aRowBesideLongDecodesIsDrawnWhileTheyTakeTurns() async throws {
        loader.answerEverything()
        let rowDrawn = DispatchSemaphore(value: 0)
        let running = Running()
        var processing = ImageProcessing.fake
        let decode = processing.decode
        processing.decodeWork = { image, _ in String(decoding: image.bytes, as: UTF8.self).contains("/long") ? 100 : 0 }
        processing.longDecodes = LongDecodeLane(threshold: 50, width: 1)
        processing.decode = { image, fit throws(DecodeError) in
            guard String(decoding: image.bytes, as: UTF8.self).contains("/long") else { return try decode(image, fit) }
            running.start()
            defer { running.end() }
            // Holds its thread as a long decode does, until the row is drawn (the deadline only ends a broken run).
            _ = rowDrawn.wait(timeout: .now() + 60)
            rowDrawn.signal()
            return try decode(image, fit)
        }
        let pipeline = ImagePipeline(configuration: .init(preemptsStalledAfter: .seconds(3600)), loader: loader,
                                     processing: processing)
        let long = ["long1", "long2"].map { name in
            Task { try await pipeline.thumbnail(request(name)).value() }
        }
        // Both long decodes have come to the decode: each has started it or waits its turn. (Counted by starts, which
        // only grow: without the lane both would hold a thread, and this task could look only after one ended.)
        while running.started + processing.longDecodes.counts.waiting < 2 { await Task.yield() }
        #expect(processing.longDecodes.counts == (running: 1, waiting: 1))

        let row = try await pipeline.thumbnail(request("row")).value()
        #expect(Self.label(row) == "row")
        #expect(running.now == 1, "drawn while a long decode still ran")
        rowDrawn.signal()
        #expect(try await long.asyncMap { Self.label(try await $0.value) } == ["long1", "long2"])
        #expect(running.most == 1, "one long decode at a time")
    }

    /// The JPEG, allowed to decode (11 s of CPU when nothing stops it), as a row's picture: the row goes once
    /// the decode runs, and the real decoder stops part way instead of running to the end for nobody.
    @Test func aLongDecodeWhoseRowIsGoneStopsPartWay() async throws {
        loader.answerEverything()
        let hostile = HostileImages.progressiveJPEG(side: 8192, scans: 499)
        let options = DecodeOptions(targetSize: PixelSize(width: 16, height: 16), maxBlockScans: .max)
        let started = DispatchSemaphore(value: 0)
        let (ended, ending) = AsyncStream<Result<Int, DecodeError>>.makeStream()
        var processing = ImageProcessing.fake
        processing.decode = { _, _ throws(DecodeError) in
            started.signal()
            let result = Result { () throws(DecodeError) -> DecodedImage in
                try ImageDecoder.decode(hostile, options: options)
            }
            ending.yield(result.map(\.bitmap.width))
            return try result.get()
        }
        let pipeline = ImagePipeline(configuration: .init(preemptsStalledAfter: .seconds(3600)), loader: loader,
                                     processing: processing)
        let row = Task { try await pipeline.thumbnail(request("long")).value() }
        // Cancelled from a Dispatch thread: the decode holds a thread of the cooperative pool, and other suites' work
        // may hold the rest, so a task could wait out the whole decode before it ran.
        DispatchQueue.global().async {
            started.wait()
            row.cancel()
        }
        await #expect(throws: CancellationError.self) { try await row.value }
        var outcomes = ended.makeAsyncIterator()
        #expect(await outcomes.next() == .failure(.cancelled), "the decode stopped, cancelled")
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
