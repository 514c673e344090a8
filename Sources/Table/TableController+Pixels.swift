/// Thumbnails in real pixels: the table shows its rows' pictures through the terminal's images where the app has
/// them (see `PixelPictures`).
extension TableController {
    /// Shows thumbnails through `pictures` once their text art is painted; nil for text art only.
    public func showPixels(through pictures: PixelPictures?) {
        binder.pixelPictures = pictures
    }
}
