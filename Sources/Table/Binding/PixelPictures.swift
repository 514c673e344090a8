import Cells
import FoundationEssentials

/// Where a row's thumbnail can be shown in real pixels: the terminal's images, kept by the app.
///
/// Once a row's text art is painted, the binder asks for the same picture as an image the terminal holds; the
/// image's cells (kitty's Unicode placeholders, one-column characters like any text) then replace the text art in
/// the same footprint. The binder asks on every update whether the images on screen are still held, and a row
/// whose image is gone (rejected by the terminal, deleted on a suspend) shows its text art again.
@MainActor
public protocol PixelPictures: AnyObject {
    /// The picture of `url` fitted to `grid` (the cells its text art fills): held by the terminal now, to be sent
    /// (awaiting the load sends it), or never (the terminal rejected it, or it cannot be shown at that size).
    func picture(of url: URL, grid: CellSize) -> PixelPicture
    /// Whether the terminal still holds this image.
    func holds(_ image: ShownImage) -> Bool
    /// The images on screen after an update, so the others may be deleted when the terminal holds too many.
    func onScreen(_ images: [ShownImage])
    /// Changes when every picture must be asked for again (the terminal's cells changed size in pixels): a slot
    /// whose pixels were shown, loading or unavailable under another generation goes back to its text art and asks.
    var generation: Int { get }
}

/// An image the terminal holds, and the cells that show it.
public struct ShownImage: Sendable, Equatable {
    public var id: UInt32
    public var cells: CellBuffer

    public init(id: UInt32, cells: CellBuffer) {
        self.id = id
        self.cells = cells
    }
}

/// A picture in pixels as `PixelPictures` answers for it.
public enum PixelPicture {
    case ready(ShownImage)
    /// Fetches the pixels and sends them to the terminal; nil when that failed. Cancelling the awaiting task stops
    /// it before anything is sent.
    case pending(@MainActor () async -> ShownImage?)
    case unavailable
}

/// Where a slot's picture in pixels stands.
public enum PixelState: Equatable {
    /// Not asked yet (no text art painted, or the image left the terminal).
    case notAsked
    case loading
    /// The terminal holds it, and the slot shows its cells.
    case shown(ShownImage)
    /// It cannot be shown: the row keeps its text art.
    case unavailable
}
