// Release-build benchmarks: `swift run -c release Bench [frame|render]`.
// Each prints its figures side by side with its anchor, as ratios, in one run.
let which = CommandLine.arguments.dropFirst().first ?? "all"
if which == "frame" || which == "all" { await runFrameBenchmark() }
if which == "render" || which == "all" { runRenderBenchmark() }
