import Cells

/// What a thumbnail block shows: nothing (no image), a spinner, the picture, or why it failed.
public enum ThumbnailState: Sendable, Equatable {
    /// The item has no image.
    case none
    /// A load is under way.
    case loading
    /// The picture, ready to draw.
    case loaded(CellBuffer)
    /// The load failed; the reason is shown in the detail pane.
    case failed(String)
    /// The source's lookup of the picture failed, so there is no URL to load (drawn as "lookup failed"; `r` asks
    /// again); the reason is shown in the detail pane.
    case lookupFailed(String)

    public var isLoading: Bool { if case .loading = self { true } else { false } }

    /// Why the load failed, or why the lookup did ("image lookup failed: ..."); nil when nothing failed.
    public var failureReason: String? {
        switch self {
        case .failed(let reason): reason
        case .lookupFailed(let reason): "image lookup failed: " + reason
        case .none, .loading, .loaded: nil
        }
    }

    /// Waits for a picture: `.loaded`, or `.failed` with the reason; nil when the load was cancelled.
    static func load(_ load: ThumbnailLoad) async -> ThumbnailState? {
        do {
            return .loaded(try await load.value())
        } catch is CancellationError where Task.isCancelled {
            // Only our own cancellation is silent; a load cancelled from elsewhere is a failure the user can retry.
            return nil
        } catch {
            return .failed(String(describing: error))
        }
    }
}
