import Cells
import Foundation
import Pipeline
import TestSupport
import TextArt

/// Pipeline tests driven through a `FakeDataLoader`, which answers each download when the test says so, and the
/// fake processing, which draws a URL's name as its picture.
protocol FakeLoaderPipelineTests {
    var loader: FakeDataLoader { get }
}

extension FakeLoaderPipelineTests {
    /// A pipeline over the gated fake loader. Its downloads receive nothing until a test answers them, so they never
    /// count as stalled here: on a slow run (a loaded machine) a 1 s stall limit would preempt them and change the
    /// order a test checks. Preemption has tests of its own (`StalledDownloadTests`).
    func pipeline(maxDownloads: Int = 6, perHost: Int = 6, retry: RetryPolicy = RetryPolicy(sleep: { _ in }),
                  diskCache: DiskCache? = nil) -> ImagePipeline {
        ImagePipeline(configuration: .init(maxDownloads: maxDownloads, maxDownloadsPerHost: perHost, retry: retry,
                                           preemptsStalledAfter: .seconds(3600)),
                      loader: loader, diskCache: diskCache, processing: .fake)
    }

    func request(_ name: String, host: String = "a.test", columns: Int = 8, rows: Int = 2) -> ThumbnailRequest {
        ThumbnailRequest(url: URL(string: "http://\(host)/\(name)")!, size: CellSize(columns: columns, rows: rows),
                         options: TextArtOptions(mode: .ascii, color: .none))
    }

    /// The name a fake picture shows.
    static func label(_ cells: CellBuffer) -> String {
        String(cells.plainText.prefix { $0 != "\n" }.reversed().drop { $0 == "." }.reversed())
    }
}
