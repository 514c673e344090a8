import Cells
import Codecs
import Foundation
@testable import Pipeline
import Synchronization
import TestSupport
import Testing
import TextArt

/// Memory pressure: the order the memory caches are shed in, driven by injected readings, and the gauge reading
/// files laid out as /proc and a cgroup v2 lay them out.
@Suite struct MemoryPressureTests {
    let options = TextArtOptions(mode: .ascii, color: .none)
    let url = URL(string: "https://example.com/a.png")!

    /// A pipeline with one picture in every memory cache: its bytes, its bitmap and its grid.
    func warmedPipeline() async throws -> ImagePipeline {
        let loader = FakeDataLoader()
        loader.answerEverything()
        let pipeline = ImagePipeline(loader: loader, processing: .fake)
        _ = try await pipeline.thumbnail(request()).value()
        #expect(pipeline.downloads.count == 1 && pipeline.bitmaps.count == 1 && pipeline.rendered.count == 1)
        return pipeline
    }

    func request() -> ThumbnailRequest {
        ThumbnailRequest(url: url, size: CellSize(columns: 8, rows: 4), options: options)
    }

    /// Says memory is short `times` times, then that it is not.
    final class Readings: Sendable {
        private let left: Mutex<Int>
        init(pressureFor times: Int) { left = Mutex(times) }
        func relieved() -> Bool {
            left.withLock { left in
                defer { left -= 1 }
                return left <= 0
            }
        }
    }

    @Test func bitmapsGoFirst() async throws {
        let pipeline = try await warmedPipeline()
        let readings = Readings(pressureFor: 0)
        await pipeline.shedMemory(until: { readings.relieved() })
        #expect(pipeline.bitmaps.count == 0)
        #expect(pipeline.downloads.count == 1 && pipeline.rendered.count == 1, "relieved: the rest stays")
        #expect(pipeline.counters.snapshot.memoryPurges == 1)
    }

    @Test func thenBytes() async throws {
        let pipeline = try await warmedPipeline()
        let readings = Readings(pressureFor: 1)
        await pipeline.shedMemory(until: { readings.relieved() })
        #expect(pipeline.bitmaps.count == 0 && pipeline.downloads.count == 0)
        #expect(pipeline.rendered.count == 1)
    }

    @Test func thenRenderedGridsButTheMostRecentlyUsed() async throws {
        let pipeline = try await warmedPipeline()
        let big = CellBuffer(width: 10, height: 10, fill: Cell("x"))
        let cost = pipeline.rendered.costLimit / 16
        for i in 0..<8 {
            pipeline.rendered.set(big, for: ThumbnailRequest(url: URL(string: "https://example.com/\(i).png")!,
                                                             size: CellSize(columns: 8, rows: 4), options: options),
                                  cost: cost)
        }
        // The picture on screen was drawn last.
        #expect(pipeline.rendered.value(for: request()) != nil)
        await pipeline.shedMemory(until: { false })
        #expect(pipeline.bitmaps.count == 0 && pipeline.downloads.count == 0)
        #expect(pipeline.rendered.totalCost <= pipeline.rendered.costLimit / 8)
        #expect(pipeline.rendered.contains(request()), "the most recently used grid stays")
        #expect(pipeline.rendered.count < 9)
    }

    @Test func aPurgeThatFindsTheCachesEmptyIsNotCounted() async throws {
        let pipeline = try await warmedPipeline()
        await pipeline.shedMemory(until: { false })
        pipeline.rendered.removeAll { _ in true }
        await pipeline.shedMemory(until: { false })
        #expect(pipeline.counters.snapshot.memoryPurges == 1)
    }

    @Test func theWatchShedsWhenTheGaugeReadsPressure() async throws {
        let pipeline = try await warmedPipeline()
        let reads = AsyncStream<Void>.makeStream()
        let gauge = MemoryGauge(description: "test") {
            reads.continuation.yield()
            return MemoryReading(used: 2, limit: 1)
        }
        pipeline.watchMemory(gauge, every: .milliseconds(5))
        var iterator = reads.stream.makeAsyncIterator()
        // The watch's look, then the shedding's looks after bitmaps and after bytes: one whole purge.
        for _ in 0..<4 { await iterator.next() }
        #expect(pipeline.counters.snapshot.memoryPurges >= 1)
        #expect(pipeline.bitmaps.count == 0 && pipeline.downloads.count == 0)
        await pipeline.cancelAll()
    }

    @Test func noPressureShedsNothing() async throws {
        let pipeline = try await warmedPipeline()
        let reads = AsyncStream<Void>.makeStream()
        let gauge = MemoryGauge(description: "test") {
            reads.continuation.yield()
            return MemoryReading(used: 1, limit: 2)
        }
        pipeline.watchMemory(gauge, every: .milliseconds(5))
        var iterator = reads.stream.makeAsyncIterator()
        for _ in 0..<3 { await iterator.next() }
        await pipeline.cancelAll()
        #expect(pipeline.counters.snapshot.memoryPurges == 0)
        #expect(pipeline.bitmaps.count == 1)
    }

    // MARK: The gauge's files

    /// A folder laid out as / is: /proc/self/{statm,cgroup} and /sys/fs/cgroup/<group>/memory.*.
    final class FakeRoot {
        let path: String
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("tt-memory-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path + "/proc/self", withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func write(_ relative: String, _ text: String) throws {
            let file = path + relative
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        }
    }

    @Test func aCgroupV2WorkingSetIsReadAgainstNinetyPercentOfItsMax() throws {
        let root = try FakeRoot()
        try root.write("/proc/self/cgroup", "0::/app.slice/tt\n")
        try root.write("/proc/self/statm", "1000 500 10 1 0 100 0\n")
        let group = "/sys/fs/cgroup/app.slice/tt"
        try root.write(group + "/memory.max", "1000000\n")
        try root.write(group + "/memory.current", "950000\n")
        try root.write(group + "/memory.stat", "anon 700000\nfile 250000\ninactive_file 200000\n")
        try root.write(group + "/memory.events", "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n")
        let gauge = MemoryGauge.live(root: root.path)

        #expect(gauge.read() == MemoryReading(used: 750_000, limit: 900_000), "page cache it can drop is not use")
        #expect(gauge.read()?.isUnderPressure == false)
        try root.write(group + "/memory.current", "1100000\n")
        #expect(gauge.read()?.isUnderPressure == true)
        try root.write(group + "/memory.current", "300000\n")
        try root.write(group + "/memory.events", "low 0\nhigh 3\nmax 0\noom 0\noom_kill 0\n")
        #expect(gauge.read()?.isUnderPressure == true, "new high events are pressure")
        #expect(gauge.read()?.isUnderPressure == false, "once")
    }

    @Test func withoutACgroupLimitResidentMemoryIsRead() throws {
        let root = try FakeRoot()
        try root.write("/proc/self/cgroup", "0::/\n")
        try root.write("/proc/self/statm", "1000 500 10 1 0 100 0\n")
        try root.write("/sys/fs/cgroup/memory.max", "max\n")
        try root.write("/sys/fs/cgroup/memory.current", "5\n")
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let gauge = MemoryGauge.live(root: root.path)
        #expect(gauge.read()?.used == 500 * pageSize)
        #expect(gauge.read()?.limit ?? 0 >= 256 << 20)
        let limited = MemoryGauge.live(limitMB: 1, root: root.path)
        #expect(limited.read() == MemoryReading(used: 500 * pageSize, limit: 1 << 20))
        #expect(limited.description == "resident memory against 1 MB")
    }

    @Test func thisProcessCanBeRead() {
        let reading = MemoryGauge.live().read()
        #expect((reading?.used ?? 0) > 1 << 20, "a Swift process uses more than a megabyte")
    }
}
