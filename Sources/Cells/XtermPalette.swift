/// The xterm palette: 16 ANSI colours, a 6x6x6 cube and 24 greys, and nearest-colour lookups into it.
public enum XtermPalette {
    /// The 16 ANSI colours as xterm shows them.
    public static let ansi: [(r: UInt8, g: UInt8, b: UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
        (255, 255, 255),
    ]
    private static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The RGB value of a palette index.
    public static func rgb(_ index: UInt8) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = Int(index)
        if i < 16 { return ansi[i] }
        if i < 232 {
            let c = i - 16
            return (UInt8(cubeLevels[c / 36]), UInt8(cubeLevels[c / 6 % 6]), UInt8(cubeLevels[c % 6]))
        }
        let v = UInt8(8 + (i - 232) * 10)
        return (v, v, v)
    }

    /// The nearest palette entry among the first `colors` (8, 16 or 256) to an RGB colour.
    public static func nearest(r: UInt8, g: UInt8, b: UInt8, colors: Int) -> UInt8 {
        if colors >= 256 { return nearest256(r: r, g: g, b: b) }
        return nearestANSI(r: r, g: g, b: b, count: colors >= 16 ? 16 : 8)
    }

    /// A palette index mapped down to a terminal with fewer colours.
    public static func reduce(paletteIndex: UInt8, to colors: Int) -> UInt8 {
        let c = rgb(paletteIndex)
        return nearest(r: c.r, g: c.g, b: c.b, colors: colors)
    }

    static func nearest256(r: UInt8, g: UInt8, b: UInt8) -> UInt8 {
        func level(_ v: UInt8) -> Int {
            let v = Int(v)
            return v < 48 ? 0 : v < 115 ? 1 : (v - 35) / 40
        }
        let (lr, lg, lb) = (level(r), level(g), level(b))
        let cube = 16 + 36 * lr + 6 * lg + lb
        let cubeDistance = distance((r, g, b), (UInt8(cubeLevels[lr]), UInt8(cubeLevels[lg]), UInt8(cubeLevels[lb])))
        let mean = (Int(r) + Int(g) + Int(b)) / 3
        let greyIndex = mean > 238 ? 23 : max(0, (mean - 3) / 10)
        let grey = UInt8(8 + greyIndex * 10)
        let greyDistance = distance((r, g, b), (grey, grey, grey))
        return greyDistance < cubeDistance ? UInt8(232 + greyIndex) : UInt8(cube)
    }

    /// The nearest of the first `count` (8 or 16) ANSI colours that keeps a grey grey and a colour in its hue.
    ///
    /// By distance alone a mid grey is nearest to yellow among the eight colours, which have no mid grey, so a grey
    /// photo turned yellow. A colour of little saturation takes the nearest grey (black, white, and with 16 colours
    /// bright black and bright white); any other takes the nearer of its hue's entries (normal, bright) and the
    /// greys, never another hue.
    static func nearestANSI(r: UInt8, g: UInt8, b: UInt8, count: Int) -> UInt8 {
        let greys: [Int] = count >= 16 ? [0, 8, 7, 15] : [0, 7]
        let high = Int(max(r, g, b)), chroma = high - Int(min(r, g, b))
        // Saturation (chroma / value) under 0.2, or too little chroma to see: a grey.
        let candidates = chroma < 24 || chroma * 5 < high ? greys : greys + hueEntries(r: r, g: g, b: b, count: count)
        return UInt8(candidates.min { distance((r, g, b), ansi[$0]) < distance((r, g, b), ansi[$1]) }!)
    }

    /// The ANSI entries of a colour's hue: the nearest of red, yellow, green, cyan, blue and magenta, and its bright
    /// variant when there are 16 colours.
    static func hueEntries(r: UInt8, g: UInt8, b: UInt8, count: Int) -> [Int] {
        let (r, g, b) = (Double(r), Double(g), Double(b))
        let high = max(r, g, b), chroma = high - min(r, g, b)
        guard chroma > 0 else { return [] }
        let sector: Double = high == r ? (g - b) / chroma : high == g ? 2 + (b - r) / chroma : 4 + (r - g) / chroma
        let hue = (sector * 60 + 360).truncatingRemainder(dividingBy: 360)
        // Hue sectors of 60 degrees centred on red (0), yellow (60), green, cyan, blue, magenta.
        let entry = [1, 3, 2, 6, 4, 5][Int((hue + 30) / 60) % 6]
        return count >= 16 ? [entry, entry + 8] : [entry]
    }

    /// A 24-bit colour as a direct-colour terminfo entry's colour number, kept out of the low numbers the entry
    /// sends as palette indexes (`indexedBelow`: 8 for xterm-direct, 256 for xterm-direct256): a black or dark blue
    /// pixel (red and green 0, blue below that) would otherwise show as a palette colour. Its green is nudged to 1,
    /// which no eye tells apart.
    public static func directColorNumber(r: UInt8, g: UInt8, b: UInt8, indexedBelow: Int) -> Int32 {
        let value = Int32(r) << 16 | Int32(g) << 8 | Int32(b)
        return value < Int32(indexedBelow) ? value | 1 << 8 : value
    }

    // Squared distance weighted roughly by how the eye weighs the channels.
    static func distance(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Int {
        let dr = Int(a.0) - Int(b.0), dg = Int(a.1) - Int(b.1), db = Int(a.2) - Int(b.2)
        return 3 * dr * dr + 4 * dg * dg + 2 * db * db
    }
}
