func runRenderBenchmark() { print("render: not yet") }
