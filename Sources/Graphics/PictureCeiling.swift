/// The most pixels one picture sent to the terminal may have, whatever its cells and the terminal's cell size say:
/// a 4K screen's (3840x2160, 33 MB as RGBA). A larger box is scaled down to it, keeping its shape; the terminal
/// scales the picture up to its cells, so a picture on a larger screen is softer but never costs more.
public enum PictureCeiling {
    public static let maxPixels = 3840 * 2160

    /// `width` x `height` scaled down by one factor on both sides to at most `maxPixels`; as it is when within.
    public static func box(width: Int, height: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0, width * height > maxPixels else { return (width, height) }
        let scale = (Double(maxPixels) / (Double(width) * Double(height))).squareRoot()
        // Rounded down, so the product stays within; at least one pixel a side, the other then cut to fit (a box
        // one pixel wide and millions high).
        let scaledWidth = max(1, Int(Double(width) * scale))
        let scaledHeight = min(max(1, Int(Double(height) * scale)), maxPixels / scaledWidth)
        return (min(scaledWidth, maxPixels / scaledHeight), scaledHeight)
    }
}
