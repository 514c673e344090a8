import Foundation
import Pipeline
import Table
import Testing
@testable import ThumbTableCLI

/// `--stats-file`: the slots' and the pipeline's counters in one JSON object, under the names the overlay shows,
/// keys sorted.
@Suite struct RunStatsTests {
    let stats: RunStats = {
        var pipeline = PipelineCounters.Snapshot()
        pipeline.requestsStarted = 11
        pipeline.maxDownloadsInFlight = 6
        pipeline.bytesDiscarded = 1 << 40
        pipeline.diskEntriesDiscarded = 2
        return RunStats(slots: .init(slots: 14, slotReuses: 30, staleResultsDropped: 4, wrongPaints: 0,
                                              loadsStarted: 45, loadsCancelled: 17),
                        pipeline: pipeline)
    }()

    @Test func holdsEveryCounterUnderTheOverlaysNameWithItsValue() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: stats.json()) as? [String: Int])
        var expected = ["slots": 14, "slot_reuses": 30, "stale_results_dropped": 4, "wrong_paints": 0,
                        "loads_started": 45, "loads_cancelled": 17]
        for (name, value) in stats.pipeline.named { expected[name] = value }
        #expect(object == expected)
        #expect(object["max_downloads_in_flight"] == 6 && object["bytes_discarded"] == 1 << 40)
    }

    @Test func isOneSortedCounterALine() throws {
        let text = String(decoding: try stats.json(), as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "{" && lines.last == "}")
        #expect(text.hasSuffix("}\n"))
        let names = lines.dropFirst().dropLast().map { line in
            String(line.drop { $0 == " " }.dropFirst().prefix { $0 != "\"" })
        }
        #expect(names.count == 6 + stats.pipeline.named.count)
        #expect(names == names.sorted())
        #expect(try stats.json() == stats.json())
    }
}
