func runFrameBenchmark() { print("frame: not yet") }
