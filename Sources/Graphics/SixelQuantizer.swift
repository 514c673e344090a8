import Pixels

/// A bitmap reduced to a sixel palette: one palette index a pixel, or `transparent` where nothing is drawn.
struct SixelQuantizedImage: Sendable {
    static let transparent = UInt16.max

    var width: Int
    var height: Int
    var palette: SixelPalette
    /// Row-major, `width * height` entries.
    var indices: [UInt16]

    /// Reduces `bitmap` to at most `maxColors` colours, with Floyd-Steinberg error diffusion unless the picture
    /// has no more colours than that. Pixels are drawn on `background` when it is given; otherwise those less than
    /// half opaque are left transparent and the rest are drawn as if opaque.
    init(_ bitmap: Bitmap, maxColors: Int, dither: Bool, background: RGBA?) {
        width = bitmap.width
        height = bitmap.height
        let packed = Self.opaquePixels(bitmap, background: background)
        palette = SixelPalette(of: packed.filter { $0 & Self.clear == 0 }, maxColors: maxColors)
        if palette.isExact {
            indices = Self.exactIndices(packed, palette: palette)
        } else {
            var nearest = NearestColor(palette)
            indices = dither
                ? Self.diffused(packed, width: width, height: height, palette: palette, nearest: &nearest)
                : packed.map { pixel in
                    guard pixel & Self.clear == 0 else { return Self.transparent }
                    return nearest.index(r: Int(pixel >> 16 & 0xFF), g: Int(pixel >> 8 & 0xFF), b: Int(pixel & 0xFF))
                }
        }
    }

    /// Marks a packed pixel that stays transparent (no colour has bit 24).
    private static let clear: UInt32 = 0x0100_0000

    /// Each pixel as `0x00RRGGBB`, or `clear` where it stays transparent.
    private static func opaquePixels(_ bitmap: Bitmap, background: RGBA?) -> [UInt32] {
        let count = bitmap.width * bitmap.height
        return [UInt32](unsafeUninitializedCapacity: count) { packed, initialized in
            bitmap.pixels.withUnsafeBufferPointer { bytes in
                for i in 0..<count {
                    var r = UInt32(bytes[i * 4]), g = UInt32(bytes[i * 4 + 1]), b = UInt32(bytes[i * 4 + 2])
                    let a = UInt32(bytes[i * 4 + 3])
                    if let background, a < 255 {
                        // Straight alpha over the background, rounded.
                        r = (r * a + UInt32(background.r) * (255 - a) + 127) / 255
                        g = (g * a + UInt32(background.g) * (255 - a) + 127) / 255
                        b = (b * a + UInt32(background.b) * (255 - a) + 127) / 255
                    } else if background == nil, a < 128 {
                        packed[i] = clear
                        continue
                    }
                    packed[i] = r << 16 | g << 8 | b
                }
            }
            initialized = count
        }
    }

    private static func exactIndices(_ packed: [UInt32], palette: SixelPalette) -> [UInt16] {
        var indexOf: [UInt32: UInt16] = [:]
        // The palette is in order of first appearance, so a pixel's exact colour maps to the first entry that came
        // from it (rounding to percents may have merged two).
        if let exact = SixelPalette.distinctColors(packed.filter { $0 & clear == 0 }, limit: palette.colors.count) {
            for (i, colour) in exact.enumerated() { indexOf[colour] = UInt16(i) }
        }
        return packed.map { pixel in indexOf[pixel] ?? transparent }
    }

    /// Floyd-Steinberg in serpentine order: each pixel's error against its palette colour goes 7/16 to the next
    /// pixel, 3/16, 5/16 and 1/16 to the three below. Transparent pixels neither take nor pass on error.
    private static func diffused(_ packed: [UInt32], width: Int, height: Int, palette: SixelPalette,
                                 nearest: inout NearestColor) -> [UInt16] {
        var indices = [UInt16](repeating: transparent, count: packed.count)
        // Errors in sixteenths, 3 channels, with a guard column on each side so the edges need no tests.
        let stride = (width + 2) * 3
        var errors = [Int32](repeating: 0, count: stride * 2)
        let colors = palette.colors.map { SIMD3<Int32>(Int32($0.r), Int32($0.g), Int32($0.b)) }
        errors.withUnsafeMutableBufferPointer { errors in
            packed.withUnsafeBufferPointer { packed in
                indices.withUnsafeMutableBufferPointer { indices in
                    var current = errors.baseAddress!, below = current + stride
                    for y in 0..<height {
                        let leftToRight = y % 2 == 0
                        let step = leftToRight ? 3 : -3
                        var x = leftToRight ? 0 : width - 1
                        for _ in 0..<width {
                            defer { x += leftToRight ? 1 : -1 }
                            let pixel = packed[y * width + x]
                            guard pixel & clear == 0 else { continue }
                            let e = (x + 1) * 3
                            let r = clamp(Int32(pixel >> 16 & 0xFF) + (current[e] + 8) >> 4)
                            let g = clamp(Int32(pixel >> 8 & 0xFF) + (current[e + 1] + 8) >> 4)
                            let b = clamp(Int32(pixel & 0xFF) + (current[e + 2] + 8) >> 4)
                            let index = nearest.index(r: Int(r), g: Int(g), b: Int(b))
                            indices[y * width + x] = index
                            let chosen = colors[Int(index)]
                            let ahead = e + step, behind = e - step
                            func spread(_ error: Int32, _ channel: Int) {
                                current[ahead + channel] += error * 7
                                below[behind + channel] += error * 3
                                below[e + channel] += error * 5
                                below[ahead + channel] += error
                            }
                            spread(r - chosen.x, 0)
                            spread(g - chosen.y, 1)
                            spread(b - chosen.z, 2)
                        }
                        swap(&current, &below)
                        below.update(repeating: 0, count: stride)
                    }
                }
            }
        }
        return indices
    }

    private static func clamp(_ value: Int32) -> Int32 { min(255, max(0, value)) }
}

/// The palette index closest to a colour, remembered per 5-bit-a-channel cell: dithered pixels ask for many nearby
/// colours. (Cells of 6 bits a channel were missed so often that scanning the palette took two thirds of a 600x400
/// encoding, 54 ms against 23 ms in all with 5 bits; the error a coarser choice leaves is diffused like the rest.)
struct NearestColor {
    private let colors: [SixelPalette.Color]
    private var cache: [Int16]

    init(_ palette: SixelPalette) {
        colors = palette.colors
        cache = [Int16](repeating: -1, count: 1 << 15)
    }

    mutating func index(r: Int, g: Int, b: Int) -> UInt16 {
        let key = (r >> 3) << 10 | (g >> 3) << 5 | b >> 3
        if cache[key] >= 0 { return UInt16(cache[key]) }
        // The cell's centre stands for every colour in it.
        let cr = (r & ~7) + 4, cg = (g & ~7) + 4, cb = (b & ~7) + 4
        var best = 0, bestDistance = Int.max
        colors.withUnsafeBufferPointer { colors in
            for i in 0..<colors.count {
                let c = colors[i]
                let dr = cr - Int(c.r), dg = cg - Int(c.g), db = cb - Int(c.b)
                let distance = dr * dr * 3 + dg * dg * 4 + db * db * 2
                if distance < bestDistance { bestDistance = distance; best = i }
            }
        }
        cache[key] = Int16(best)
        return UInt16(best)
    }
}
