import Cells
import Foundation
import Pipeline
import Synchronization
import TestSupport
import Testing

/// What the pipeline tells the reuse overlay: where a pending load's picture came from (memory, disk, network),
/// through the awaiting task's `ThumbnailLoadReport`, and how many bytes a download under way has received.
@Suite struct LoadOriginTests: FakeLoaderPipelineTests {
    let loader = FakeDataLoader()

    /// Awaits a load as a row slot does, with a report, and returns where the picture came from.
    static func origin(of load: ThumbnailLoad) async throws -> ThumbnailOrigin? {
        let report = ThumbnailLoadReport()
        _ = try await ThumbnailLoadReport.$current.withValue(report) { try await load.value() }
        return report.origin
    }

    @Test func aPictureSaysWhetherItWasDownloadedReadFromDiskOrFoundInMemory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("origin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = pipeline(diskCache: try DiskCache(directory: directory))
        let r = request("1.png")
        async let downloaded = Self.origin(of: first.thumbnail(r))
        #expect(await loader.waitForStarts(1))
        loader.answer()
        #expect(try await downloaded == .network)

        // A new run over the same disk cache: its memory is empty, the bytes are on disk.
        let second = pipeline(diskCache: try DiskCache(directory: directory))
        #expect(try await Self.origin(of: second.thumbnail(r)) == .disk)
        // Another size of it: drawn again from the bytes or bitmap kept in memory, nothing read or downloaded.
        #expect(try await Self.origin(of: second.thumbnail(request("1.png", columns: 12, rows: 3))) == .memory)
        #expect(loader.started.count == 1)
    }

    /// A loader that receives `bytes` and then waits until it is cancelled, telling the test when it got there.
    struct StuckMidway: DataLoading {
        let bytes: Int
        let arrived: AsyncStream<Void>.Continuation

        func load(_ url: URL, limits: LoadLimits, received: @escaping @Sendable (Int) -> Void) async throws
            -> LoadedData {
            received(bytes)
            arrived.yield()
            try await Task.sleep(for: .seconds(3600))
            throw CancellationError()
        }
    }

    @Test func aDownloadUnderWaySaysHowManyBytesItReceived() async throws {
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        let pipeline = ImagePipeline(loader: StuckMidway(bytes: 40 * 1024, arrived: arrived), processing: .fake)
        let r = request("5.png")
        #expect(pipeline.downloadProgress(of: r.url) == nil)
        let load = Task { try await pipeline.thumbnail(r).value() }
        var iterator = arrivals.makeAsyncIterator()
        _ = await iterator.next()
        #expect(pipeline.downloadProgress(of: r.url) == .receiving(bytes: 40 * 1024))
        load.cancel()
        _ = await load.result
    }
}
