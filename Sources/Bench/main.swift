// Release-build benchmarks: `swift run -c release Bench [frame|render|scroll [ROWS]|json|zoom]`.
// Each prints its figures side by side with its anchor, as ratios, in one run.
let which = CommandLine.arguments.dropFirst().first ?? "all"
if which == "frame" || which == "all" { await runFrameBenchmark() }
if which == "render" || which == "all" { await runRenderBenchmark() }
if which == "scroll" || which == "all" {
    await runScrollBenchmark(rows: CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 2000)
}
if which == "json" { runJSONPageBenchmark() }
if which == "zoom" || which == "all" { await runZoomBenchmark() }
