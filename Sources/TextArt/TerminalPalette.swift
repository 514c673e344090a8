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
    /// The same, one array per axis in chunks of eight entries (the last padded with entries that never win), for
    /// a search eight entries at a time: the scalar search was most of a 256-colour rendering's time.
    private let labL: [SIMD8<Float>], labA: [SIMD8<Float>], labB: [SIMD8<Float>]
    /// The entries a colour of almost no chroma is limited to, when the palette has too few greys for nearness
    /// alone: among the 16 ANSI colours, greys between bright black and white were nearest to cyan or yellow.
    private let greys: [Int]?

    /// Chroma (OKLab) below which a colour counts as grey for `greys`: a warm or cool grey stays well under it,
    /// a pale but visible tint is over.
    static let greyChroma: Float = 0.04

    init(indices: [UInt8], greys: [UInt8]? = nil) {
        self.indices = indices
        self.greys = greys.map { g in indices.indices.filter { g.contains(indices[$0]) } }
        linear = indices.map { i in
            let c = TerminalPalette.rgb(i)
            let lut = ColorSpace.linearOfByte
            return SIMD3(lut[Int(c.0)], lut[Int(c.1)], lut[Int(c.2)])
        }
        lab = linear.map(ColorSpace.oklab)
        let far = SIMD3<Float>(repeating: 1e6)  // squared distance 3e12: finite, larger than any real one
        let padded = lab + Array(repeating: far, count: (8 - lab.count % 8) % 8)
        let chunks = stride(from: 0, to: padded.count, by: 8).map { Array(padded[$0..<($0 + 8)]) }
        labL = chunks.map { c in SIMD8(c.map(\.x)) }
        labA = chunks.map { c in SIMD8(c.map(\.y)) }
        labB = chunks.map { c in SIMD8(c.map(\.z)) }
        gamma = indices.map { i in
            let c = TerminalPalette.rgb(i)
            return SIMD3(Float(c.0), Float(c.1), Float(c.2)) / 255
        }
    }

    /// The 16 ANSI colours with xterm's values (what most terminals and the quality tool assume).
    static let ansi16 = TerminalPalette(indices: Array(0...15), greys: [0, 8, 7, 15])
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

    /// The entry nearest to an OKLab colour; of equally near ones, the first.
    ///
    /// Squared distances are formed as `(dL² + da²) + db²`, the order `(d * d).sum()` adds in, so the choice is the
    /// same as a plain loop over `lab` makes.
    func nearest(lab target: SIMD3<Float>) -> Int {
        if let greys, target.y * target.y + target.z * target.z < Self.greyChroma * Self.greyChroma {
            return greys.min { abs(lab[$0].x - target.x) < abs(lab[$1].x - target.x) }!
        }
        let chunks = labL.count
        return withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: chunks) { distances in
            var least = SIMD8<Float>(repeating: .infinity)
            labL.withUnsafeBufferPointer { l in
                labA.withUnsafeBufferPointer { a in
                    labB.withUnsafeBufferPointer { b in
                        for i in 0..<chunks {
                            let dl = l[i] - target.x, da = a[i] - target.y, db = b[i] - target.z
                            let d = (dl * dl + da * da) + db * db
                            distances[i] = d
                            least.replace(with: d, where: d .< least)
                        }
                    }
                }
            }
            let minimum = least.min()
            for i in 0..<chunks {
                let hits = distances[i] .== minimum
                if hits != SIMDMask(repeating: false) {
                    for lane in 0..<8 where hits[lane] { return i * 8 + lane }
                }
            }
            return 0
        }
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
