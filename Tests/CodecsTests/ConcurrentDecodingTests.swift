import Codecs
import Testing

@Suite struct ConcurrentDecodingTests {
    /// Decoders share no state: many tasks decoding at once get exactly what one decode alone gets.
    @Test func decodesFromManyTasksAtOnce() async throws {
        let names = ["baseline.jpg", "progressive.jpg", "orientation_6.jpg", "truncated.jpg", "cmyk_adobe.jpg",
                     "rgb.png", "interlaced.png", "animated.gif", "lossy_alpha.webp", "animated.webp"]
        let expected = try names.map { try Fixtures.decode($0) }
        try await withThrowingTaskGroup(of: (Int, DecodedImage).self) { group in
            for _ in 0..<8 {
                for (index, name) in names.enumerated() {
                    group.addTask { (index, try Fixtures.decode(name)) }
                }
            }
            for try await (index, image) in group {
                #expect(image == expected[index], "\(names[index])")
            }
        }
    }
}
