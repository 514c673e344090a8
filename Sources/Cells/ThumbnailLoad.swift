import Synchronization

/// A thumbnail as a loader answers for it: ready from memory, or to be awaited.
///
/// Declared here, below both, so the pipeline's answer reaches the table's row slots as it is: the app's adapter
/// passes it on, without a second enum to map it into.
public typealias ThumbnailLoad = Load<CellBuffer>

/// Where a thumbnail's picture came from, for the reuse overlay: memory (nothing loaded), the disk cache, or the
/// network.
public enum ThumbnailOrigin: Sendable, Equatable {
    case memory, disk, network
}

/// What a loader tells about one pending load while it is awaited: where its picture came from.
///
/// A task-local, not a change to `ThumbnailLoad`: the slot that awaits a load sets `current` around the await, a
/// loader that knows (the pipeline) fills it in, and loaders that do not know keep working unchanged (the slot then
/// says only "painted").
public final class ThumbnailLoadReport: Sendable {
    @TaskLocal public static var current: ThumbnailLoadReport?

    private let state = Mutex<ThumbnailOrigin?>(nil)

    public init() {}

    /// Where the picture came from, once the loader said.
    public var origin: ThumbnailOrigin? {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
