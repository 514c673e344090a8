import Cells
import FoundationEssentials

/// Who a picture on screen is for: a slot's binding (its id and binding generation, so a slot bound anew is another
/// owner), or the detail pane.
public enum PictureOwner: Sendable, Hashable {
    case slot(id: Int, generation: Int)
    case pane
}

/// A picture the frame shows: whose it is, what it is, and the cells its text art takes (which a picture in real
/// pixels covers exactly). The frame model's answer to "which pictures are where", read by the App's terminal
/// pictures after each update.
public struct ScreenPicture: Sendable, Hashable {
    public var owner: PictureOwner
    public var url: URL
    public var footprint: PictureFootprint
    /// The frame of an animation shown (0: the first, or a still picture): the same picture at the same place with
    /// another frame is sent again, nothing erased first.
    public var frame: Int
    /// False when only part of it shows (cut by the list's bottom, or partly covered by the help or the reuse
    /// overlay): only a picture that is text cells (kitty's placeholders) may be drawn then, and the frame clips it.
    public var isWhole: Bool

    public init(owner: PictureOwner, url: URL, footprint: PictureFootprint, frame: Int = 0, isWhole: Bool = true) {
        self.owner = owner
        self.url = url
        self.footprint = footprint
        self.frame = frame
        self.isWhole = isWhole
    }

    /// The same picture with its first frame: what a still picture sent for it shows.
    public var firstFrame: ScreenPicture {
        var first = self
        first.frame = 0
        return first
    }

    /// The same picture at the same place, whatever frame.
    public func isAtPlace(of other: ScreenPicture) -> Bool {
        owner == other.owner && url == other.url && footprint == other.footprint
    }
}

/// The text cells that show pictures in place of their text art, by owner (kitty's Unicode placeholders): what the
/// App's terminal pictures hand the frame (`TableController.frame(pictureCells:)`) for the frame being drawn.
public typealias PictureCells = [PictureOwner: CellBuffer]
