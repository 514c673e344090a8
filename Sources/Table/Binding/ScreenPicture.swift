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

    public init(owner: PictureOwner, url: URL, footprint: PictureFootprint) {
        self.owner = owner
        self.url = url
        self.footprint = footprint
    }
}
