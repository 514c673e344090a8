import Foundation
import ItemSources

/// Reading big JSON pages: the bounded page reader against JSONSerialization (what the sources used before), on
/// three 28-37 MB pages made here: many items, many small numbers, and a deep-ish page of nested lists.
///
/// Time is wall time of one read; memory is the growth of the resident size (`/proc/self/statm`) with the result
/// alive, since the page bodies made here already raised the peak resident size.
func runJSONPageBenchmark() {
    let pages: [(name: String, body: [UInt8])] = [
        ("250,000 photo records", Array(("{\"items\":[" + (0..<250_000).map {
            "{\"id\":\($0),\"title\":\"photo \($0)\",\"url\":\"https://example.com/\($0).jpg\","
                + "\"thumbnailUrl\":\"https://example.com/t/\($0).jpg\",\"albumId\":\($0 / 50)}"
        }.joined(separator: ",") + "]}").utf8)),
        ("14,000,000 small numbers", Array(("{\"items\":[" + Array(repeating: "1", count: 14_000_000)
            .joined(separator: ",") + "]}").utf8)),
        ("1,000,000 lists of 5", Array(("[" + Array(repeating: "[1,[2,[3,[4,[5]]]]]", count: 1_000_000)
            .joined(separator: ",") + "]").utf8)),
    ]
    print("JSON pages: bounded reader vs JSONSerialization (wall time of one read, resident growth with the result alive)")
    for page in pages {
        let (readerTime, readerMemory, kept) = measure {
            let read = try? JSONPageReader.read(page.body)
            return (read, read.map { value in
                ((value.value as? [String: Any])?["items"] as? [Any])?.count ?? (value.value as? [Any])?.count ?? -1
            })
        }
        let (foundationTime, foundationMemory, _) = measure {
            let object = try? JSONSerialization.jsonObject(with: Data(page.body))
            return (object, 0)
        }
        print(String(format: "  %@ (%.1f MB): reader %.2f s, +%d MB (kept %d items) | JSONSerialization %.2f s, +%d MB"
                     + " | time ratio %.3f", page.name, Double(page.body.count) / 1e6, readerTime, readerMemory >> 20,
                     kept ?? -1, foundationTime, foundationMemory >> 20, readerTime / foundationTime))
    }
}

private func measure<Held>(_ work: () -> (Held, Int?)) -> (seconds: Double, heldBytes: Int, result: Int?) {
    let before = heapInUse()
    let start = ContinuousClock.now
    let (held, result) = work()
    let elapsed = ContinuousClock.now - start
    let after = heapInUse()
    withExtendedLifetime(held) {}
    let (seconds, attoseconds) = elapsed.components
    return (Double(seconds) + Double(attoseconds) / 1e18, max(0, after - before), result)
}

private func heapInUse() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}
