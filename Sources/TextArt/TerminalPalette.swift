import Cells

/// The colours a palette depth can show, and nearest-colour search among them.
struct TerminalPalette: Sendable {
    /// The palette index of each entry.
    let indices: [UInt8]
    /// Each entry in linear light.
    let linear: [SIMD3<Float>]
    /// Each entry gamma-encoded (0...1), where block renderers judge a fit.
    let gamma: [SIMD3<Float>]
    /// Each entry in OKLab, where nearness is judged.
    let lab: [SIMD3<Float>]

    init(indices: [UInt8]) {
        self.indices = indices
        linear = indices.map { i in
            let c = TerminalPalette.rgb(i)
            let lut = ColorSpace.linearOfByte
            return SIMD3(lut[Int(c.0)], lut[Int(c.1)], lut[Int(c.2)])
        }
        lab = linear.map(ColorSpace.oklab)
        gamma = indices.map { i in
            let c = TerminalPalette.rgb(i)
            return SIMD3(Float(c.0), Float(c.1), Float(c.2)) / 255
        }
    }

    /// The 16 ANSI colours with xterm's values (what most terminals and the quality tool assume).
    static let ansi16 = TerminalPalette(indices: Array(0...15))
    /// The fixed part of the xterm palette: the 6x6x6 cube and 24 greys.
    static let xterm240 = TerminalPalette(indices: Array(16...255))

    static func forDepth(_ depth: ColorDepth) -> TerminalPalette? {
        switch depth {
        case .ansi16: ansi16
        case .palette256: xterm240
        case .none, .truecolor: nil
        }
    }

    /// The entry nearest to a linear colour.
    func nearest(linear c: SIMD3<Float>) -> Int {
        nearest(lab: ColorSpace.oklab(c))
    }

    func nearest(lab target: SIMD3<Float>) -> Int {
        var best = 0
        var bestDistance = Float.infinity
        lab.withUnsafeBufferPointer { lab in
            for i in 0..<lab.count {
                let d = lab[i] - target
                let dd = (d * d).sum()
                if dd < bestDistance { bestDistance = dd; best = i }
            }
        }
        return best
    }

    func color(_ entry: Int) -> CellColor { .palette(indices[entry]) }

    private static let ansiRGB: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
        (255, 255, 255),
    ]

    /// The RGB value xterm gives a palette index.
    static func rgb(_ index: UInt8) -> (UInt8, UInt8, UInt8) {
        let i = Int(index)
        if i < 16 { return ansiRGB[i] }
        if i < 232 {
            let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
            let c = i - 16
            return (levels[c / 36], levels[c / 6 % 6], levels[c % 6])
        }
        let v = UInt8(8 + (i - 232) * 10)
        return (v, v, v)
    }
}
