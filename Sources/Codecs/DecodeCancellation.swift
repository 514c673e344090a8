/// How a decode learns that it is no longer wanted: the cancellation of the task it runs in, asked by each decoder
/// between rows (PNG), scans' rows (JPEG) and frames (GIF, WebP animations). A decode outside any task never stops.
///
/// Why the task's own flag and not a token in `DecodeOptions`: a decode runs synchronously inside the task that
/// wants it (the pipeline's job task), so the flag is already there, and a caller that cancels the task needs
/// nothing else to stop the decode.
enum DecodeCancellation {
    /// For C callbacks, which cannot capture: nonzero when the current task is cancelled.
    static let cCallback: @convention(c) () -> Int32 = { Task.isCancelled ? 1 : 0 }

    /// Throws `DecodeError.cancelled` when the current task is cancelled.
    static func check() throws(DecodeError) {
        if Task.isCancelled { throw .cancelled }
    }
}
