import Codecs
import Pixels

/// The rule for a picture shown in real pixels: fitted inside a box of pixels with its aspect ratio kept, never
/// enlarged (the terminal scales it up to its cells if need be), and the area-averaging scaler that makes it.
public struct PixelFit: Sendable, Hashable {
    /// The size the picture is sent at.
    public var size: PixelSize

    /// The fit of a picture of this full size (displayed orientation) inside `box`.
    public init(imageSize: PixelSize, in box: PixelSize) {
        guard imageSize.width > 0, imageSize.height > 0, box.width > 0, box.height > 0 else {
            size = PixelSize(width: max(1, min(imageSize.width, box.width)), height: max(1, min(imageSize.height,
                                                                                                 box.height)))
            return
        }
        if imageSize.width <= box.width && imageSize.height <= box.height {
            size = imageSize
        } else if box.width * imageSize.height <= box.height * imageSize.width {
            // The width decides: the picture is wider than the box, for its height.
            size = PixelSize(width: box.width,
                             height: max(1, (imageSize.height * box.width + imageSize.width / 2) / imageSize.width))
        } else {
            size = PixelSize(width: max(1, (imageSize.width * box.height + imageSize.height / 2) / imageSize.height),
                             height: box.height)
        }
    }

    /// The bitmap scaled to `size` by averaging the source pixels each target pixel covers (weighted by the alpha,
    /// so transparent pixels lend no colour); the bitmap itself when it already has that size. Scaling up repeats
    /// pixels.
    public func scale(_ source: Bitmap) -> Bitmap {
        let (width, height) = (size.width, size.height)
        if source.width == width && source.height == height { return source }
        guard source.width > 0, source.height > 0 else { return Bitmap(width: width, height: height,
                                                                          fill: RGBA(r: 0, g: 0, b: 0, a: 0)) }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let xSpans = Self.spans(target: width, source: source.width)
        let ySpans = Self.spans(target: height, source: source.height)
        source.pixels.withUnsafeBufferPointer { src in
            for y in 0..<height {
                let rows = ySpans[y]
                for x in 0..<width {
                    let columns = xSpans[x]
                    var r = 0, g = 0, b = 0, a = 0, count = 0
                    for sy in rows {
                        var i = (sy * source.width + columns.lowerBound) * 4
                        for _ in columns {
                            let alpha = Int(src[i + 3])
                            r += Int(src[i]) * alpha
                            g += Int(src[i + 1]) * alpha
                            b += Int(src[i + 2]) * alpha
                            a += alpha
                            count += 1
                            i += 4
                        }
                    }
                    let o = (y * width + x) * 4
                    if a > 0 {
                        pixels[o] = UInt8((r + a / 2) / a)
                        pixels[o + 1] = UInt8((g + a / 2) / a)
                        pixels[o + 2] = UInt8((b + a / 2) / a)
                    }
                    pixels[o + 3] = UInt8((a + count / 2) / count)
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// For each target pixel along one axis, the source pixels it covers (at least one).
    private static func spans(target: Int, source: Int) -> [Range<Int>] {
        (0..<target).map { t in
            let start = t * source / target
            let end = max(start + 1, (t + 1) * source / target)
            return start..<min(end, source)
        }
    }
}
