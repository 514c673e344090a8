// Release-build benchmarks: `swift run -c release Bench [frame|render|scroll [ROWS [j|pgdn]]|json|zoom|kitty]`.
// Each prints its figures side by side with its anchor, as ratios, in one run.
let which = CommandLine.arguments.dropFirst().first ?? "all"
if which == "frame" || which == "all" { await runFrameBenchmark() }
if which == "render" || which == "all" { await runRenderBenchmark() }
if which == "scroll" || which == "all" {
    let arguments = CommandLine.arguments.dropFirst(2)
    await runScrollBenchmark(rows: arguments.first.flatMap { Int($0) } ?? 2000, keys: arguments.dropFirst().first)
}
if which == "json" { runJSONPageBenchmark() }
if which == "kitty" { runKittyBytesBenchmark() }
if which == "zoom" || which == "all" { await runZoomBenchmark() }
