@testable import Codecs
import Pixels
import Synchronization
import Testing

/// What a decode will allocate, worked out from the header, and the limit each decoder checks it against.
@Suite struct DecodeMemoryTests {
    static let thumbnail = DecodeOptions(keepsAnimationFrames: false)

    @Test(arguments: [
        // 24x16 RGBA is 1536 bytes.
        ("rgb.png", DecodeOptions(), 1536),
        // DCT-scaled to 1/8: the 3x2 bitmap only.
        ("baseline.jpg", DecodeOptions(targetSize: PixelSize(width: 3, height: 2)), 24),
        ("baseline.jpg", DecodeOptions(), 1536),
        // Progressive: every coefficient stays, at full size, whatever the scale: 3 components of 3x2 blocks.
        ("progressive.jpg", DecodeOptions(), 1536 + 3 * 6 * 128),
        ("progressive.jpg", DecodeOptions(targetSize: PixelSize(width: 3, height: 2)), 24 + 3 * 6 * 128),
        // EXIF-turned: a second bitmap for the turn.
        ("orientation_6.jpg", DecodeOptions(), 2 * 1536),
        // The canvas and one palette index a pixel.
        ("still.gif", thumbnail, 1536 + 384),
        // Lossless WebP keeps a full-size image beside the scaled bitmap; lossy scales as it decodes.
        ("lossless_alpha.webp", DecodeOptions(targetSize: PixelSize(width: 12, height: 8)), 384 + 1536),
        ("lossy_alpha.webp", DecodeOptions(targetSize: PixelSize(width: 24, height: 16)), 1536),
        // An animation's first frame: libwebp's two 10x6 canvases and our copy.
        ("animated.webp", thumbnail, 3 * 240),
    ])
    func costIsWhatTheDecodeAllocatesAndTheDecoderHoldsToIt(name: String, options: DecodeOptions,
                                                           expected: Int) throws {
        // Given a fixture's cost as its header tells it
        let bytes = try Fixtures.bytes(name)
        let cost = try ImageDecoder.memoryCost(of: bytes, options: options)
        #expect(cost == expected)

        // Then the decoder refuses it one byte under, and decodes it at exactly that much
        var tight = options
        tight.maxMemory = cost - 1
        #expect(throws: DecodeError.needsTooMuchMemory(bytes: cost, limit: cost - 1)) {
            try ImageDecoder.decode(bytes, options: tight)
        }
        tight.maxMemory = cost
        #expect(throws: Never.self) { try ImageDecoder.decode(bytes, options: tight) }
    }

    @Test func animationsKeepingTheirFramesMayUseTheWholeLimit() throws {
        let options = DecodeOptions(maxMemory: 5000)
        #expect(try ImageDecoder.memoryCost(of: try Fixtures.bytes("animated.webp"), options: options) == 5000)
        #expect(try ImageDecoder.memoryCost(of: try Fixtures.bytes("animated.gif"), options: options) == 5000)
    }

    @Test func sixteenBitBombIsRefusedFromItsHeader() throws {
        // Given the header of a 9000x9000 16-bit RGBA PNG and a few bytes of pixel data (a bomb's 630 KB of zeros
        // would inflate to 648 MB of rows)
        let header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + PNGColourTypeTests.chunk("IHDR", PNGColourTypeTests.bigEndian(9000) + PNGColourTypeTests.bigEndian(9000)
                + [16, 6, 0, 0, 0])
            + PNGColourTypeTests.chunk("IDAT", PNGEncoder.zlibStored([UInt8](repeating: 0, count: 64)))
            + PNGColourTypeTests.chunk("IEND", [])
        let cost = try ImageDecoder.memoryCost(of: header)
        #expect(cost == 4 * 9000 * 9000)

        // When it is decoded within 256 MB, then it is refused before anything is read past the header
        let error = #expect(throws: DecodeError.self) {
            try ImageDecoder.decode(header, options: .init(maxMemory: 256 << 20))
        }
        #expect(error == .needsTooMuchMemory(bytes: 324_000_000, limit: 256 << 20))
        #expect(error?.description == "decoding the image needs 309.0 MB of memory, above the 256 MB one decode may "
            + "use; raise the memory limit (DecodeOptions.maxMemory) to decode it")
    }
}

/// One budget shared by concurrent decodes.
@Suite struct DecodeMemoryBudgetTests {
    @Test func refusesAReservationLargerThanItsCapacity() async {
        let budget = DecodeMemoryBudget(capacity: 100)
        await #expect(throws: DecodeError.needsTooMuchMemory(bytes: 101, limit: 100)) {
            try await budget.reserve(101)
        }
        #expect(budget.available == 100)
    }

    @Test func aReservationThatDoesNotFitWaitsForARelease() async throws {
        // Given 60 of 100 bytes taken
        let budget = DecodeMemoryBudget(capacity: 100)
        try await budget.reserve(60)

        // When another 60 are asked for, then they wait
        let second = Task { try await budget.reserve(60) }
        while budget.waitingCount == 0 { await Task.yield() }
        #expect(budget.available == 40)

        // And get them once the first 60 come back
        budget.release(60)
        try await second.value
        #expect(budget.available == 40 && budget.waitingCount == 0)
        budget.release(60)
        #expect(budget.available == 100)
    }

    @Test func aCancelledWaiterLeavesAndLetsTheNextIn() async throws {
        // Given 90 of 100 bytes taken, and a wait for 50 ahead of a wait for 10
        let budget = DecodeMemoryBudget(capacity: 100)
        try await budget.reserve(90)
        let large = Task { try await budget.reserve(50) }
        while budget.waitingCount < 1 { await Task.yield() }
        let small = Task { try await budget.reserve(10) }
        while budget.waitingCount < 2 { await Task.yield() }

        // When the large one is cancelled, then it throws, and the small one behind it fits and goes in
        large.cancel()
        await #expect(throws: CancellationError.self) { try await large.value }
        try await small.value
        #expect(budget.available == 0 && budget.waitingCount == 0)
    }

    @Test func concurrentRealDecodesNeverHoldMoreThanTheCapacity() async throws {
        // Given a budget with room for one decode of rgb.png at a time
        let bytes = try Fixtures.bytes("rgb.png")
        let cost = try ImageDecoder.memoryCost(of: bytes)
        let budget = DecodeMemoryBudget(capacity: 2 * cost - 1)
        let running = Gauge()
        let expected = try ImageDecoder.decode(bytes)

        // When sixteen tasks decode it at once through the budget
        try await withThrowingTaskGroup(of: DecodedImage.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    try await budget.withReservation(of: cost) {
                        running.enter()
                        defer { running.leave() }
                        return try ImageDecoder.decode(bytes)
                    }
                }
            }
            // Then each gets the pixels, one at a time, and the budget is whole again
            for try await image in group { #expect(image == expected) }
        }
        #expect(running.most == 1)
        #expect(budget.available == budget.capacity)
    }
}

/// How many bodies run at once, and the most that ever did.
private final class Gauge: Sendable {
    private let state = Mutex((now: 0, most: 0))

    var most: Int { state.withLock { $0.most } }

    func enter() {
        state.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
    }

    func leave() {
        state.withLock { $0.now -= 1 }
    }
}
