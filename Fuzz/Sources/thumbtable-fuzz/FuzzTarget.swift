import Foundation

/// One thing the fuzzer can drive: a name for `scripts/fuzz` and a function that must survive any bytes.
///
/// Each target traps (through `promise`) when the code breaks a promise it makes about its result, so libFuzzer
/// records the input as a crash; errors thrown for bad input are the expected outcome and are ignored.
struct FuzzTarget: Sendable {
    let name: String
    /// What the target exercises, for `scripts/fuzz --list`.
    let summary: String
    let run: @Sendable (UnsafeRawBufferPointer) -> Void

    static let all: [FuzzTarget] = [
        ImageFuzzing.target(for: .jpeg), ImageFuzzing.target(for: .png), ImageFuzzing.target(for: .gif),
        ImageFuzzing.target(for: .webp), ImageFuzzing.target(for: .heif), ImageFuzzing.target(for: .avif),
        ImageFuzzing.target(for: .jxl), AnimationFuzzing.avifSequence, ImageFuzzing.header, PageFuzzing.target,
        TextFuzzing.target,
    ]

    /// The target named by `THUMBTABLE_FUZZ_TARGET`; the binary holds every target and runs one at a time.
    static let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["THUMBTABLE_FUZZ_TARGET"] ?? ""
        guard let target = all.first(where: { $0.name == name }) else {
            let names = all.map(\.name).joined(separator: ", ")
            let message = "thumbtable-fuzz: set THUMBTABLE_FUZZ_TARGET to one of \(names)\n"
            FileHandle.standardError.write(Data(message.utf8))
            _exit(2)  // not exit: no leak report for a run that never started
        }
        return target
    }()
}

/// Stops the run with `message` when a promise is broken; unlike `precondition`, whose message -O drops, it says which.
func promise(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("broken promise: \(message())") }
}

/// libFuzzer's setup hook: picks the target before the first input, so a wrong name stops the run at once.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>,
                             _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    _ = FuzzTarget.selected
    return 0
}

/// libFuzzer's entry point: one input, any bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.selected.run(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
