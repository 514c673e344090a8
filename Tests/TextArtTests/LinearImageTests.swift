import Pixels
import Testing
@testable import TextArt

/// The resampler: what shrinking and enlarging keep of a picture.
@Suite struct LinearImageTests {
    let grey = RGBA(r: 90, g: 140, b: 200)

    /// A picture whose red byte is `value(x, y)`, green and blue 0.
    func ramp(width: Int, height: Int, _ value: (Int, Int) -> Int) -> Bitmap {
        bitmap(width: width, height: height) { x, y in RGBA(r: UInt8(value(x, y)), g: 0, b: 0) }
    }

    @Test(arguments: [(100, 60, 13, 9), (7, 5, 3, 11), (3, 4, 40, 30)])
    func aConstantPictureStaysConstant(source: (Int, Int, Int, Int)) {
        // Given one colour, shrunk, enlarged or both (one axis each way)
        let (w, h, ow, oh) = source
        // When resampled
        let image = LinearImage(resampling: Bitmap(width: w, height: h, fill: grey), width: ow, height: oh,
                                background: black)
        // Then every pixel is that colour: the weights of each output sum to one.
        let expected = ColorSpace.linearOfByte
        for i in 0..<(ow * oh) {
            #expect(abs(image.r[i] - expected[90]) < 1e-5)
            #expect(abs(image.g[i] - expected[140]) < 1e-5)
            #expect(abs(image.b[i] - expected[200]) < 1e-5)
        }
    }

    @Test func shrinkingKeepsTheMeanInLinearLight() {
        // Given a ramp, shrunk by a factor that is not a whole number
        let source = ramp(width: 50, height: 23) { x, y in (x * 5 + y * 3) % 256 }
        let image = LinearImage(resampling: source, width: 7, height: 6, background: black)
        // Then the mean is the source's: every source pixel counts for the area it covers.
        let lut = ColorSpace.linearOfByte
        var sourceMean: Float = 0
        for y in 0..<23 { for x in 0..<50 { sourceMean += lut[Int(source[x, y].r)] } }
        sourceMean /= Float(50 * 23)
        let mean = image.r.reduce(0, +) / Float(image.r.count)
        #expect(abs(mean - sourceMean) < 1e-4)
    }

    @Test func enlargingThreefoldGoesThroughTheSourcePixels() {
        // Given a ramp with an edge in it, enlarged three times
        let source = ramp(width: 8, height: 1) { x, _ in [10, 60, 200, 255, 0, 0, 120, 30][x] }
        let image = LinearImage(resampling: source, width: 24, height: 1, background: black)
        // Then the middle output of each three sits on its source pixel's centre and has exactly its value: the
        // kernel is 1 there and 0 at every other source pixel.
        let lut = ColorSpace.linearOfByte
        for x in 0..<8 {
            #expect(abs(image.r[x * 3 + 1] - lut[Int(source[x, 0].r)]) < 1e-5)
        }
    }

    @Test func enlargingStaysInRangeAcrossAHardEdge() {
        // Given black against white, enlarged: the kernel's negative lobes overshoot at the edge
        let source = bitmap(width: 4, height: 2) { x, _ in x < 2 ? black : white }
        let image = LinearImage(resampling: source, width: 32, height: 5, background: black)
        // Then the values stay between black and white.
        #expect(image.r.allSatisfy { (0...1).contains($0) })
    }
}
