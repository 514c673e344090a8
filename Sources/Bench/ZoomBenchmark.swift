import App
import Cells
import Codecs
import Foundation
import Items
import Pipeline
import Table
import TestSupport
import TextArt

// `Bench zoom`: `+` on a 200x60 screen of loaded thumbnails (sized to the screen, truecolor sextants), with the real
// pipeline over 127.0.0.1 and the demo's real photos, each row its own URL. A sample is the time from
// `zoom(by: 1)` to the frame composed with every visible thumbnail painted at the new size, on a screen never
// zoomed before (so the zoomed size is in no rendered-grid cache, only the bitmaps and bytes of the base size are).
// The budget is 50 ms. Beside it, with prefetch off, and what the zoom costs in parts: a render alone, on one
// thread, from the bitmap decoded as the pipeline decodes it, and a decode of each photo at its fit.

@MainActor
func runZoomBenchmark() async {
    print("zoom: + on a 200x60 screen of loaded thumbnails, real pipeline and photos over 127.0.0.1, 30 rounds")
    let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized
    let names = ["astronaut.png", "camera.png", "chelsea.png", "coffee.png", "coins.png", "horse.png",
                 "hubble_deep_field.jpg", "rocket.jpg"]
    let rows = 800
    let server: TestHTTPServer
    let bodies: [[UInt8]]
    do {
        server = try await TestHTTPServer.start()
        bodies = try names.map { try [UInt8](Data(contentsOf: photos.appendingPathComponent($0))) }
        for row in 0..<rows { server.serve("/img/\(row)", .ok(bodies[row % bodies.count])) }
    } catch {
        print("zoom: cannot start the test server: \(error)")
        return
    }
    func ms(_ samples: [Double], _ p: Int) -> Double { samples.sorted()[min(samples.count - 1, samples.count * p / 100)] }
    var last = ZoomBench.Result()
    for prefetch in [true, false] {
        let result = await ZoomBench.run(rows: rows, server: server, prefetch: prefetch)
        print(prefetch ? "  as shipped (the next and previous screens are prefetched once the screen is drawn):"
              : "  with --no-prefetch:")
        print("    thumbnails \(result.from) -> \(result.to), \(result.onScreen) rows on screen after the zoom")
        print(String(format: "    zoom -> frame painted: median %.1f ms, p90 %.1f ms, max %.1f ms (budget 50 ms)",
                     ms(result.samples, 50), ms(result.samples, 90), result.samples.max() ?? 0))
        print(String(format: "    of which update() (bind, cancel, start loads, prefetch) %.2f ms, frame() %.2f ms",
                     ms(result.updates, 50), ms(result.frames, 50)))
        print(String(format: "    per zoom: %.1f renders, %.1f decodes, %.1f downloads", result.rendersPerZoom,
                     result.decodesPerZoom, result.downloadsPerZoom))
        last = result
    }
    await server.stop()
    let result = last
    let parts = ZoomBench.parts(bodies, names: names, size: result.to)
    print(String(format: "  in parts, one thread, one photo at a time: a render at %@ from its bitmap %.2f ms mean, "
                 + "a decode at its fit %.2f ms mean", "\(result.to)", parts.render, parts.decode))
}

@MainActor
enum ZoomBench {
    struct Result {
        var samples: [Double] = [], updates: [Double] = [], frames: [Double] = []
        var from = CellSize(columns: 0, rows: 0), to = CellSize(columns: 0, rows: 0)
        var onScreen = 0
        var rendersPerZoom = 0.0, decodesPerZoom = 0.0, downloadsPerZoom = 0.0
    }

    static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    static func run(rows: Int, server: TestHTTPServer, prefetch: Bool) async -> Result {
        let pipeline = ImagePipeline(configuration: .init(), loader: DataLoader())
        let items = (0..<rows).map { row in
            Item(id: "\(row)", title: "Row \(row)", subtitle: "bench",
                 imageURL: server.baseURL.appendingPathComponent("img/\(row)"))
        }
        let table = TableController(source: FrameBench.AllAtOnce(items: items),
                                    loader: PipelineThumbnailLoader(pipeline: pipeline, options: .default),
                                    configuration: .init(thumbnail: nil, prefetch: prefetch))
        table.resize(columns: 200, rows: 60)
        var waiting: (() -> Bool, CheckedContinuation<Void, Never>)?
        table.onChange {
            if let (condition, continuation) = waiting, condition() {
                waiting = nil
                continuation.resume()
            }
        }
        func until(_ condition: @escaping () -> Bool) async {
            if condition() { return }
            await withCheckedContinuation { waiting = (condition, $0) }
        }
        func allPainted() -> Bool {
            let size = table.thumbnailSize
            return table.visibleRows.compactMap(table.itemIndex(forRow:)).allSatisfy { index in
                guard case .loaded(let picture) = table.pool.slot(forItem: index)?.thumbnail else { return false }
                // A picture keeps its photo's shape inside the box: it fits the box, and fills it one way.
                return picture.width <= size.columns && picture.height <= size.rows
                    && (picture.width == size.columns || picture.height == size.rows)
            }
        }
        table.start()
        await until { table.items.count >= rows }
        var result = Result()
        result.from = table.thumbnailSize
        var counts = (renders: 0, decodes: 0, downloads: 0)
        let rounds = 30
        for round in 0..<rounds {
            // A part of the list no zoom has seen: load its screen at the base size first (not timed).
            table.jump(toRow: 20 + round * 25)
            table.update()
            await until(allPainted)
            // Let the prefetch around it finish too (no download under way, no render for 50 ms), so the zoom is
            // timed alone.
            var last = pipeline.counters.snapshot
            repeat {
                last = pipeline.counters.snapshot
                try? await Task.sleep(for: .milliseconds(50))
            } while pipeline.counters.downloadsInFlight > 0 || pipeline.counters.snapshot != last
            let before = pipeline.counters.snapshot
            let start = ContinuousClock.now
            table.zoom(by: 1)
            table.update()
            let updated = ContinuousClock.now
            await until(allPainted)
            let painted = ContinuousClock.now
            _ = table.frame()
            let end = ContinuousClock.now
            result.samples.append(milliseconds(end - start))
            result.updates.append(milliseconds(updated - start))
            result.frames.append(milliseconds(end - painted))
            let after = pipeline.counters.snapshot
            counts.renders += after.renders - before.renders
            counts.decodes += after.decodes - before.decodes
            counts.downloads += after.downloadsStarted - before.downloadsStarted
            result.to = table.thumbnailSize
            result.onScreen = table.visibleRows.count
            table.zoom(by: -1)
            table.update()
        }
        table.cancelAll()
        await pipeline.cancelAll()
        result.rendersPerZoom = Double(counts.renders) / Double(rounds)
        result.decodesPerZoom = Double(counts.decodes) / Double(rounds)
        result.downloadsPerZoom = Double(counts.downloads) / Double(rounds)
        return result
    }

    /// Mean milliseconds, on this thread, to render each photo at `size` from the bitmap the pipeline caches for
    /// it, and to decode it at that fit.
    static func parts(_ bodies: [[UInt8]], names: [String], size: CellSize) -> (render: Double, decode: Double) {
        let options = TextArtOptions.default
        var render = 0.0, decode = 0.0
        let repeats = 20
        for bytes in bodies {
            let encoded = EncodedImage(bytes)
            let fit = PictureFit(of: encoded, in: size, options: options)
            let start = ContinuousClock.now
            var image: DecodedImage?
            for _ in 0..<repeats { image = try? fit.decode(encoded) }
            let decoded = ContinuousClock.now
            guard let image else { continue }
            var sink = 0
            for _ in 0..<repeats { sink &+= fit.render(image, options: options).cells.count }
            let rendered = ContinuousClock.now
            if sink == 42 { print("") }
            decode += milliseconds(decoded - start) / Double(repeats)
            render += milliseconds(rendered - decoded) / Double(repeats)
        }
        return (render / Double(bodies.count), decode / Double(bodies.count))
    }
}
