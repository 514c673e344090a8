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

    public var isLoading: Bool { if case .loading = self { true } else { false } }

    /// The state of a row whose picture could not be looked up (the source's lookup failed, so there is no URL to
    /// load): a failure, told from a failed download by its reason's prefix, drawn as "lookup failed".
    static func lookupFailed(_ reason: String) -> ThumbnailState { .failed(lookupFailurePrefix + reason) }

    static let lookupFailurePrefix = "image lookup failed: "

    /// Whether this is a failed lookup rather than a failed load.
    public var isLookupFailure: Bool {
        if case .failed(let reason) = self { reason.hasPrefix(Self.lookupFailurePrefix) } else { false }
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
