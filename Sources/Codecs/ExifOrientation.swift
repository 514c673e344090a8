import Pixels

/// The EXIF orientation tag (0x0112): how the stored pixels must be turned to stand upright.
///
/// Names follow the edge the stored image's top lands on, as in CGImagePropertyOrientation.
enum ExifOrientation: Int, Sendable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// Orientations 5 to 8 turn the image a quarter: width and height trade places.
    var swapsAxes: Bool { rawValue >= 5 }

    /// The size of the upright image for a stored image of `size`.
    func displayedSize(of size: PixelSize) -> PixelSize { swapsAxes ? size.transposed : size }
}

extension Bitmap {
    /// This bitmap turned upright according to `orientation`.
    ///
    /// Every orientation maps an output pixel (x, y) to stored pixel `origin + x * stepX + y * stepY` (in pixels), so
    /// one loop does all eight; it walks the output in tiles so that the quarter turns read the source cache-friendly.
    func applying(_ orientation: ExifOrientation) -> Bitmap {
        guard orientation != .up else { return self }
        let w = width, h = height
        let last = (h - 1) * w
        let (origin, stepX, stepY): (Int, Int, Int) = switch orientation {
        case .up: (0, 1, w)
        case .upMirrored: (w - 1, -1, w)
        case .down: (last + w - 1, -1, -w)
        case .downMirrored: (last, 1, -w)
        case .leftMirrored: (0, w, 1)
        case .right: (last, -w, 1)
        case .rightMirrored: (last + w - 1, -w, -1)
        case .left: (w - 1, w, -1)
        }
        let out = orientation.displayedSize(of: PixelSize(width: w, height: h))
        let tile = 32
        let rotated = [UInt8](unsafeUninitializedCapacity: pixels.count) { target, count in
            pixels.withUnsafeBytes { source in
                let src = source.baseAddress!, dst = UnsafeMutableRawPointer(target.baseAddress!)
                for tileY in stride(from: 0, to: out.height, by: tile) {
                    for tileX in stride(from: 0, to: out.width, by: tile) {
                        for y in tileY..<min(tileY + tile, out.height) {
                            var from = origin + tileX * stepX + y * stepY
                            var to = y * out.width + tileX
                            for _ in tileX..<min(tileX + tile, out.width) {
                                dst.storeBytes(of: src.loadUnaligned(fromByteOffset: from * 4, as: UInt32.self),
                                               toByteOffset: to * 4, as: UInt32.self)
                                from += stepX
                                to += 1
                            }
                        }
                    }
                }
            }
            count = target.count
        }
        return Bitmap(width: out.width, height: out.height, pixels: rotated)
    }
}
