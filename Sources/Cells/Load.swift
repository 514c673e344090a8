/// A result as a loader answers for it: ready from memory, or to be awaited. One shape for a thumbnail's text art
/// (`ThumbnailLoad`) and a picture's pixels (the pipeline's `PixelLoad`).
public enum Load<Value: Sendable>: Sendable {
    case ready(Value)
    /// The load; awaiting it starts or joins the work, and cancelling the awaiting task leaves it (the shared work is
    /// cancelled when nobody else wants it).
    case pending(@Sendable () async throws -> Value)

    /// The result, waiting for it if need be.
    public func value() async throws -> Value {
        switch self {
        case .ready(let value): value
        case .pending(let load): try await load()
        }
    }

    /// The result if it was in memory.
    public var ready: Value? {
        if case .ready(let value) = self { value } else { nil }
    }
}
