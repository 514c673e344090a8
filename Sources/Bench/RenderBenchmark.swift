import Cells
import Codecs
import Foundation
import TestSupport
import TextArt

// `Bench render`: decode + render in process, against the budgets (1920x1080 JPEG to 40x20 under 5 ms, 150x150 PNG
// to 16x8 under 0.3 ms). The inputs are made at bench time from a photo of the quality tool's set: scaled with
// grain added (so the JPEG's entropy decoding costs what a real photo's does), then encoded: the JPEG by
// `Codecs.JPEGEncoder` (baseline, 4:2:0), the PNG with the zlib the process already links, found with dlsym. The
// photo PNG is RGB, as a photo's PNG is; the other 150x150 PNG is the placeholder thumbnail the demo server serves
// in the place of jsonplaceholder's, fetched from it, since that is what the photos source shows in its rows.

// On the main actor: the timed work stays on the main thread, and callgrind, which crashes once the global executor
// starts its threads, can run the bench with RENDER_BENCH_INPUTS.
@MainActor
func runRenderBenchmark() async {
    let settings = RenderBench.Settings(environment: ProcessInfo.processInfo.environment)
    let inputNames = ["bench-1920x1080.jpg", "bench-150x150.png", "bench-150x150-placeholder.png"]
    let jpeg: [UInt8], png: [UInt8], placeholder: [UInt8]
    if let folder = settings.inputFolder {
        // Valgrind cannot run the demo server (it crashes in libdispatch's threads): profilers read dumped inputs.
        let files = inputNames.compactMap { try? ImageDecoder.readFile(at: folder + "/" + $0) }
        guard files.count == 3 else {
            print("render: \(folder) does not hold \(inputNames.joined(separator: ", ")) "
                  + "(write them with RENDER_BENCH_DUMP)")
            return
        }
        (jpeg, png, placeholder) = (files[0], files[1], files[2])
    } else {
        guard let photo = RenderBench.sourcePhoto() else {
            print("render: no source photo found (set THUMBTABLE_IMAGES to a folder holding rocket.jpg)")
            return
        }
        let big = RenderBench.scaled(photo, width: 1920, height: 1080, grain: 10)
        let small = RenderBench.scaled(photo, width: 150, height: 150, grain: 0)
        guard let encodedJPEG = try? JPEGEncoder.encode(big, quality: 85),
              let encodedPNG = RenderBench.encodePNG(small) else {
            print("render: could not encode the inputs (libturbojpeg failed, or zlib's symbols were not found)")
            return
        }
        guard let served = await RenderBench.placeholderPNG() else {
            print("render: the demo server did not serve its placeholder PNG (see the DemoServer tests)")
            return
        }
        (jpeg, png, placeholder) = (encodedJPEG, encodedPNG, served)
    }
    if let folder = settings.dumpFolder {
        // The same inputs as files, for whole-process runs (hyperfine, jp2a, tjbench) and profilers.
        for (name, bytes) in zip(inputNames, [jpeg, png, placeholder]) {
            _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(bytes))
        }
    }
    let runs = settings.runs
    let cases: [(String, [UInt8], Int, Int, Double)] = [
        ("1920x1080 JPEG -> 40x20", jpeg, 40, 20, 5.0),
        ("150x150 PNG photo -> 16x8", png, 16, 8, 0.3),
        ("150x150 PNG placeholder -> 16x8", placeholder, 16, 8, 0.3),
    ]
    let depths: [ColorDepth] = [.truecolor, .palette256, .none]
    let modes = RenderMode.allCases.filter {
        settings.includes($0.rawValue, among: RenderMode.allCases.map(\.rawValue))
    }
    let chosenDepths = depths.filter { settings.includes($0.rawValue, among: depths.map(\.rawValue)) }
    if settings.profiling {
        // Only the selected decode-and-renders, `runs` times each, untimed: what a profiler should see.
        for (name, bytes, columns, rows, _) in cases where settings.includes(name, among: cases.map(\.0)) {
            for mode in modes {
                for color in chosenDepths {
                    for _ in 0..<runs {
                        RenderBench.decodeAndRender(bytes, columns: columns, rows: rows,
                                                    options: TextArtOptions(mode: mode, color: color))
                    }
                }
            }
        }
        return
    }
    print("render: decode + fit + render, median of \(runs) runs (p90 in brackets; then the median thread CPU "
          + "time), in process; a case's decode and variants run in turn, 10 runs each a round")
    print("  inputs: 1920x1080 JPEG q85 4:2:0 \(jpeg.count / 1024) KiB, 150x150 photo PNG RGB \(png.count / 1024) KiB, "
          + "150x150 placeholder PNG (2-colour palette, stored) \(placeholder.count / 1024) KiB")
    for (name, bytes, columns, rows, budget) in cases where settings.includes(name, among: cases.map(\.0)) {
        print("  \(name) (budget \(budget) ms):")
        let box = TextArtRenderer.sourcePixelSize(columns: columns, rows: rows, mode: TextArtOptions.default.mode)
        let target = RenderBench.plan(bytes, columns: columns, rows: rows, options: .default).target
        // The decode alone and every mode and depth, measured round by round (ten runs of each a round), so a
        // change in the machine's speed during the case hits them all alike.
        let variants = modes.flatMap { mode in chosenDepths.map { TextArtOptions(mode: mode, color: $0) } }
        var bodies: [() -> Void] = [{
            _ = try? ImageDecoder.decode(bytes, options: DecodeOptions(targetSize: target, keepsAnimationFrames: false))
        }]
        bodies += variants.map { options in
            { RenderBench.decodeAndRender(bytes, columns: columns, rows: rows, options: options) }
        }
        let stats = RenderBench.measureInterleaved(runs: runs, bodies)
        let decodeOnly = stats[0]
        print("    decode alone (to cover \(target), the fitted grid's pixels): "
              + "\(RenderBench.format(decodeOnly.median)) ms (cpu \(RenderBench.format(decodeOnly.cpu)) ms)")
        for (options, stats) in zip(variants, stats.dropFirst()) {
            let isDefault = options == .default ? " (default)" : ""
            let verdict = stats.median <= budget ? "ok" : "OVER"
            print("    \(options.mode.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) "
                  + "\(options.color.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) "
                  + "\(RenderBench.format(stats.median)) ms [\(RenderBench.format(stats.p90))] "
                  + "cpu \(RenderBench.format(stats.cpu)) ms "
                  + "\(verdict), \(RenderBench.format(stats.median / budget * 100))% of budget\(isDefault)")
        }
        if let decoded = try? ImageDecoder.decode(bytes, options: DecodeOptions(targetSize: target,
                                                                                 keepsAnimationFrames: false)) {
            let grid = TextArtRenderer.fit(imageWidth: decoded.originalWidth, imageHeight: decoded.originalHeight,
                                           maxColumns: columns, maxRows: rows)
            let renderOnly = RenderBench.measure(runs: runs) {
                _ = TextArtRenderer.render(decoded.bitmap, columns: grid.columns, rows: grid.rows, options: .default)
            }
            print("    render alone (default options, \(decoded.bitmap.width)x\(decoded.bitmap.height) decoded to "
                  + "\(grid.columns)x\(grid.rows) cells): \(RenderBench.format(renderOnly.median)) ms "
                  + "(cpu \(RenderBench.format(renderOnly.cpu)) ms)")
        }
        // The older rule, still in callers that pass the box's pixels as the decode target: JPEG then decodes at a
        // larger DCT scale than the fitted picture needs.
        let boxRun = RenderBench.measure(runs: runs) {
            guard let decoded = try? ImageDecoder.decode(bytes, options: DecodeOptions(
                targetSize: PixelSize(width: box.width, height: box.height), keepsAnimationFrames: false))
            else { return }
            let grid = TextArtRenderer.fit(imageWidth: decoded.originalWidth, imageHeight: decoded.originalHeight,
                                           maxColumns: columns, maxRows: rows)
            _ = TextArtRenderer.render(decoded.bitmap, columns: grid.columns, rows: grid.rows, options: .default)
        }
        print("    decode + render (default) with the whole box's pixels (\(box.width)x\(box.height)) as the decode "
              + "target: \(RenderBench.format(boxRun.median)) ms (cpu \(RenderBench.format(boxRun.cpu)) ms)")
        let cells = RenderBench.decodeAndRender(bytes, columns: columns, rows: rows, options: .default)
        let ansi = RenderBench.measure(runs: runs) { _ = cells.ansiText }
        print("    ANSI serialisation of the default rendering: \(RenderBench.format(ansi.median)) ms")
        if let floor = RenderBench.inflateFloor(png: bytes, runs: runs) {
            // Any libpng-based decode inflates the whole zlib stream: this is the least a decode can cost.
            print("    zlib's uncompress of the IDAT data alone, in one call (the floor under libpng): "
                  + "\(RenderBench.format(floor.median)) ms (cpu \(RenderBench.format(floor.cpu)) ms)")
        }
    }
}

enum RenderBench {
    /// Knobs for profiling and for whole-process comparisons, read from the environment: `RENDER_BENCH_RUNS`
    /// (default 300), `RENDER_BENCH_ONLY` (comma-separated words; a case, mode or colour depth runs only if it
    /// contains one of them or names none of the same kind), `RENDER_BENCH_DUMP` (a folder to write the inputs to),
    /// `RENDER_BENCH_INPUTS` (a folder to read them from instead of making them, as `RENDER_BENCH_DUMP` wrote them),
    /// `RENDER_BENCH_PROFILE=1` (only run the selected decode-and-renders, untimed, for a profiler).
    struct Settings {
        var runs = 300
        var only: [String] = []
        var dumpFolder: String?
        var inputFolder: String?
        var profiling = false

        init(environment: [String: String]) {
            if let text = environment["RENDER_BENCH_RUNS"], let value = Int(text), value > 0 { runs = value }
            only = (environment["RENDER_BENCH_ONLY"] ?? "").split(separator: ",").map(String.init)
            dumpFolder = environment["RENDER_BENCH_DUMP"]
            inputFolder = environment["RENDER_BENCH_INPUTS"]
            profiling = environment["RENDER_BENCH_PROFILE"] == "1"
        }

        /// Whether `name` is selected among `names` (the cases, the modes or the colour depths): yes when no word
        /// of `RENDER_BENCH_ONLY` is about these names, else when one of those words is part of it.
        func includes(_ name: String, among names: [String]) -> Bool {
            let chosen = only.filter { word in names.contains { $0.contains(word) } }
            return chosen.isEmpty || chosen.contains { name.contains($0) }
        }
    }

    /// Decode, fit, render, the way a thumbnail should be made: the header gives the picture's aspect ratio, the
    /// grid is fitted in the box, and the decoder covers the fitted grid's pixels (not the whole box's).
    @discardableResult
    static func decodeAndRender(_ bytes: [UInt8], columns: Int, rows: Int, options: TextArtOptions) -> CellBuffer {
        let (grid, target) = plan(bytes, columns: columns, rows: rows, options: options)
        guard let decoded = try? ImageDecoder.decode(bytes, options: DecodeOptions(targetSize: target,
                                                                                   keepsAnimationFrames: false))
        else { fatalError("bench input did not decode") }
        return TextArtRenderer.render(decoded.bitmap, columns: grid.columns, rows: grid.rows, options: options)
    }

    /// The fitted grid and the decode target `decodeAndRender` uses.
    static func plan(_ bytes: [UInt8], columns: Int, rows: Int, options: TextArtOptions)
        -> (grid: (columns: Int, rows: Int), target: PixelSize) {
        guard let header = try? ImageDecoder.header(of: bytes) else { fatalError("bench input has no header") }
        let grid = TextArtRenderer.fit(imageWidth: header.width, imageHeight: header.height,
                                       maxColumns: columns, maxRows: rows, cellAspect: options.cellAspect)
        let size = TextArtRenderer.sourcePixelSize(columns: grid.columns, rows: grid.rows, mode: options.mode)
        return (grid, PixelSize(width: size.width, height: size.height))
    }

    /// Milliseconds a run: the median and 90th percentile of wall time, and the median of the thread's CPU time.
    ///
    /// On a machine shared with builds, wall time includes waiting for a core; CPU time is what the work itself
    /// costs, close to the wall time of an idle machine.
    static func measure(runs: Int, _ body: () -> Void) -> (median: Double, p90: Double, cpu: Double) {
        withoutActuallyEscaping(body) { measureInterleaved(runs: runs, [$0])[0] }
    }

    /// `measure` for several bodies at once, in rounds: each round runs every body `batch` times in a row, in turn,
    /// so drift in the machine's speed reaches all of them alike rather than whichever ran during it, while a body
    /// still runs with the caches it warmed, as a table's thumbnails in one mode do.
    static func measureInterleaved(runs: Int, batch: Int = 10,
                                   _ bodies: [() -> Void]) -> [(median: Double, p90: Double, cpu: Double)] {
        for _ in 0..<max(5, runs / 10) { for body in bodies { body() } }
        let clock = ContinuousClock()
        var times = [[Double]](repeating: [], count: bodies.count)
        var cpuTimes = times
        let batch = max(1, min(batch, runs))
        for _ in 0..<((runs + batch - 1) / batch) {
            for (i, body) in bodies.enumerated() {
                for _ in 0..<batch {
                    let cpuStart = threadCPUTime()
                    let start = clock.now
                    body()
                    let d = clock.now - start
                    cpuTimes[i].append(threadCPUTime() - cpuStart)
                    times[i].append(Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000)
                }
            }
        }
        return zip(times, cpuTimes).map { times, cpuTimes in
            let times = times.sorted(), cpuTimes = cpuTimes.sorted()
            return (times[times.count / 2], times[times.count * 9 / 10], cpuTimes[cpuTimes.count / 2])
        }
    }

    /// The calling thread's CPU time in milliseconds.
    static func threadCPUTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1e6
    }

    static func format(_ ms: Double) -> String { String(format: "%.3f", ms) }
}
