import Cells
import Foundation
import Items
import Table

// `Bench frame`: the cost of composing a 200x60 frame, with 100 rows loaded and with 1,000,000 rows loaded, in the
// list, the grid and the compact list, in one run. The anchor is the 100-row list: the 1,000,000-row tables must cost
// what the 100-row ones do (the same ratio), because a frame only touches the rows (or cells) on screen.

@MainActor
func runFrameBenchmark() async {
    print("frame: compose a 200x60 frame (list: thumbnails 12x5; grid: its own size), every visible thumbnail "
          + "loaded, median of 7 rounds")
    var results: [(String, Double)] = []
    for layout in LayoutMode.allCases {
        for count in [100, 1_000_000] {
            let perFrame = await FrameBench.measure(rows: count, layout: layout)
            let label = "\(layout), \(count) rows" + (results.isEmpty ? " (anchor)" : "")
            results.append((label, perFrame))
        }
    }
    let anchor = results[0].1
    for (label, perFrame) in results {
        let padded = label.padding(toLength: 30, withPad: " ", startingAt: 0)
        print("  \(padded) " + String(format: "%8.1f µs a frame   ratio %.2f", perFrame, perFrame / anchor))
    }
}

@MainActor
enum FrameBench {
    /// Microseconds a frame: the median of 7 rounds of 500 frames, each frame after moving the selection one row
    /// (in the grid, one line of cells), so slots are rebound as rows scroll in and out, in the middle of the list.
    static func measure(rows count: Int, layout: LayoutMode = .list) async -> Double {
        let items = (0..<count).map { i in
            Item(id: "\(i)", title: "Row \(i): a title of a typical length for a list row",
                 subtitle: "subtitle \(i)", imageURL: URL(string: "http://127.0.0.1/\(i % 50).png"),
                 attribution: "Image from the benchmark")
        }
        let table = TableController(source: AllAtOnce(items: items), loader: SolidThumbnail(),
                                    configuration: .init(thumbnail: CellSize(columns: 12, rows: 5), layout: layout))
        table.resize(columns: 200, rows: 60)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            var resumed = false
            table.onChange {
                if !resumed, table.items.count == count { resumed = true; done.resume() }
            }
            table.start()
        }
        table.onChange {}
        table.jump(toRow: count / 2)
        // Warm up: bind the slots and let the thumbnails arrive.
        table.update()
        for _ in 0..<3 { await Task.yield() }
        var rounds: [Double] = []
        var sink = 0
        for round in 0..<7 {
            let start = ContinuousClock.now
            for i in 0..<500 {
                table.move(by: (round + i) % 2 == 0 ? 1 : -1)
                // What the app does each turn: bring the loads in line, then compose.
                table.update()
                sink &+= table.frame().cells.count
            }
            let elapsed = ContinuousClock.now - start
            rounds.append(Double(elapsed.components.attoseconds) / 1e12 / 500
                          + Double(elapsed.components.seconds) * 1e6 / 500)
            await Task.yield()
        }
        if sink == 42 { print("") }
        table.cancelAll()
        return rounds.sorted()[rounds.count / 2]
    }

    struct AllAtOnce: ItemSource {
        let items: [Item]
        var name: String { "bench" }
        var attribution: String { "All images from the benchmark" }
        var firstPage: PageCursor { .number(1) }
        func page(at cursor: PageCursor) async throws -> ItemPage {
            ItemPage(items: items, next: nil)
        }
    }

    struct SolidThumbnail: ThumbnailLoading {
        func thumbnail(_ url: URL, size: CellSize) -> ThumbnailLoad {
            .pending {
                CellBuffer(width: size.columns, height: size.rows,
                           fill: Cell("▀", foreground: .rgb(200, 100, 50), background: .rgb(20, 40, 60)))
            }
        }
    }
}
