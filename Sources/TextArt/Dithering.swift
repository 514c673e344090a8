/// Ordered-dither thresholds and Floyd–Steinberg weights shared by the renderers.
enum Dithering {
    /// The 8x8 Bayer matrix as thresholds in (0, 1), row-major.
    static let bayer8: [Float] = {
        var m = [Int](repeating: 0, count: 64)
        for y in 0..<8 {
            for x in 0..<8 {
                // Interleave the bits of x ^ y and y (the classic recursive construction).
                var v = 0
                let xy = x ^ y
                for bit in 0..<3 {
                    v |= ((xy >> bit) & 1) << (2 * (2 - bit) + 1)
                    v |= ((y >> bit) & 1) << (2 * (2 - bit))
                }
                m[y * 8 + x] = v
            }
        }
        return m.map { (Float($0) + 0.5) / 64 }
    }()

    @inline(__always) static func threshold(x: Int, y: Int) -> Float { bayer8[(y & 7) * 8 + (x & 7)] }

    /// Floyd–Steinberg: where the error of pixel (x, y) goes, scanning left to right, top to bottom.
    static let floydSteinberg: [(dx: Int, dy: Int, weight: Float)] = [
        (1, 0, 7 / 16), (-1, 1, 3 / 16), (0, 1, 5 / 16), (1, 1, 1 / 16),
    ]
}
