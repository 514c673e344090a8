import FoundationEssentials

/// The cells a picture covers: its text art's place, which a picture in real pixels takes over exactly.
public struct PictureFootprint: Sendable, Hashable {
    public var x: Int, y: Int, columns: Int, rows: Int

    public init(x: Int, y: Int, columns: Int, rows: Int) {
        self.x = x
        self.y = y
        self.columns = columns
        self.rows = rows
    }
}

/// The detail pane's picture as the screen shows it: what the App needs to draw it again in real pixels.
public struct DetailPicture: Sendable, Hashable {
    /// The image shown (the full-size one, or the thumbnail after it failed or in low-data mode).
    public var url: URL
    /// Where its text art is on the screen.
    public var footprint: PictureFootprint
    /// The animation's frame shown (0: the first, or a still picture).
    public var frame = 0
}

extension TableController {
    /// The detail pane's loaded picture and where it is on screen; nil when no pane is open, its picture has not
    /// loaded, or the help or the reuse overlay covers it. Read after `update()`, as `frame()` is.
    public var detailPicture: DetailPicture? {
        frameModel.detailPicture
    }
}
