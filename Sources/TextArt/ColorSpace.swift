#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// sRGB ⇄ linear light and lightness, as lookup tables: renderers average in linear light and judge in L*.
enum ColorSpace {
    /// Steps of the tables indexed by a linear value in 0...1.
    static let linearSteps = 4095

    // The tables themselves (linearOfByte, byteOfLinear, gammaOfLinear, lightnessOfLuminance) are literals in the
    // generated ColorSpace+Tables.swift, which the compiler lays out in the binary: computing them took 1.6 M
    // instructions (12,000 powers and cube roots) of a 25 M `render`. `computedTables` says what they hold.

    /// The tables as the formulas give them: what ColorSpace+Tables.swift holds, written and checked by
    /// `GeneratedTablesTests`.
    static func computedTables() -> (linearOfByte: [Float], byteOfLinear: [UInt8], gammaOfLinear: [Float],
                                     lightnessOfLuminance: [Float]) {
        let steps = (0...linearSteps).map { Float($0) / Float(linearSteps) }
        return ((0..<256).map { decode(Float($0) / 255) },
                steps.map { UInt8(min(255, max(0, (encode($0) * 255).rounded()))) },
                steps.map { encode($0) },
                steps.map { lightness($0) })
    }

    static func decode(_ v: Float) -> Float {
        v <= 0.04045 ? v / 12.92 : powf((v + 0.055) / 1.055, 2.4)
    }

    static func encode(_ v: Float) -> Float {
        let v = min(1, max(0, v))
        return v <= 0.0031308 ? v * 12.92 : 1.055 * powf(v, 1 / 2.4) - 0.055
    }

    /// L* (0...1) of a relative luminance.
    static func lightness(_ y: Float) -> Float {
        let y = min(1, max(0, y))
        let f = y > 216 / 24389 ? cbrtf(y) : y * (24389 / 27) / 116 + 16 / 116
        return (116 * f - 16) / 100
    }

    /// The relative luminance of an L* (0...1).
    static func luminance(lightness l: Float) -> Float {
        let f = (l * 100 + 16) / 116
        return f > 6 / 29 ? f * f * f : (f - 16 / 116) * 3 * (6 / 29) * (6 / 29)
    }

    @inline(__always) static func step(_ linear: Float) -> Int {
        Int(min(1, max(0, linear)) * Float(linearSteps) + 0.5)
    }

    @inline(__always) static func byte(linear: Float) -> UInt8 { byteOfLinear[step(linear)] }
    @inline(__always) static func gamma(linear: Float) -> Float { gammaOfLinear[step(linear)] }
    @inline(__always) static func lightness(luminance y: Float) -> Float { lightnessOfLuminance[step(y)] }

    @inline(__always) static func luminance(_ r: Float, _ g: Float, _ b: Float) -> Float {
        0.2126 * r + 0.7152 * g + 0.0722 * b
    }

    /// OKLab of a linear sRGB colour: distances there are close to how different colours look.
    static func oklab(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l = cbrtf(max(0, 0.4122214708 * c.x + 0.5363325363 * c.y + 0.0514459929 * c.z))
        let m = cbrtf(max(0, 0.2119034982 * c.x + 0.6806995451 * c.y + 0.1073969566 * c.z))
        let s = cbrtf(max(0, 0.0883024619 * c.x + 0.2817188376 * c.y + 0.6299787005 * c.z))
        return SIMD3(0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
                     1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
                     0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
    }
}
