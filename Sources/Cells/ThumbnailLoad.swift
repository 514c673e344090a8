/// A thumbnail as a loader answers for it: ready from memory, or to be awaited.
///
/// Declared here, below both, so the pipeline's answer reaches the table's row slots as it is: the app's adapter
/// passes it on, without a second enum to map it into.
public enum ThumbnailLoad: Sendable {
    case ready(CellBuffer)
    /// The load; awaiting it starts or joins the work, and cancelling the awaiting task leaves it (the shared work is
    /// cancelled when nobody else wants it).
    case pending(@Sendable () async throws -> CellBuffer)

    /// The picture, waiting for it if need be.
    public func value() async throws -> CellBuffer {
        switch self {
        case .ready(let cells): cells
        case .pending(let load): try await load()
        }
    }

    /// The picture if it was in memory.
    public var ready: CellBuffer? {
        if case .ready(let cells) = self { cells } else { nil }
    }
}
