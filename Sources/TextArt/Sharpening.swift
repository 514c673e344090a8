/// Unsharp masking of the sampled picture, before glyphs are fitted to it.
enum Sharpening {
    /// `image` plus `amount` times its difference from a blur of it, for a picture of `cellColumns x cellRows` pixels
    /// a cell.
    ///
    /// The blur averages each pixel with its neighbours half a cell's width away across and the same distance down
    /// (weights 1 2 1 each way; a cell is taken as twice as tall as wide), so it works at the same scale on the
    /// screen whatever the mode's grid.
    static func unsharp(_ image: LinearImage, amount: Float, cellColumns: Int, cellRows: Int) -> LinearImage {
        let w = image.width, h = image.height
        guard amount != 0, w > 0, h > 0 else { return image }
        let dx = max(1, cellColumns / 2), dy = max(1, cellRows / 4)
        var across = [Float](repeating: 0, count: w * h)
        func plane(_ p: [Float]) -> [Float] {
            var out = [Float](repeating: 0, count: w * h)
            p.withUnsafeBufferPointer { p in
                across.withUnsafeMutableBufferPointer { across in
                    out.withUnsafeMutableBufferPointer { out in
                        for y in 0..<h {
                            let row = y * w
                            for x in 0..<w {
                                let l = p[row + max(0, x - dx)], r = p[row + min(w - 1, x + dx)]
                                across[row + x] = 0.25 * (l + r) + 0.5 * p[row + x]
                            }
                        }
                        for y in 0..<h {
                            let row = y * w, up = max(0, y - dy) * w, down = min(h - 1, y + dy) * w
                            for x in 0..<w {
                                let blur = 0.25 * (across[up + x] + across[down + x]) + 0.5 * across[row + x]
                                let v = p[row + x]
                                out[row + x] = min(1, max(0, v + amount * (v - blur)))
                            }
                        }
                    }
                }
            }
            return out
        }
        return LinearImage(width: w, height: h, r: plane(image.r), g: plane(image.g), b: plane(image.b))
    }
}
