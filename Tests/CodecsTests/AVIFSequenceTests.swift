@testable import Codecs
import Foundation
import Pixels
import TestSupport
import Testing

/// Issue 30, item 3: AVIF sequences, made by avifenc at test time, played frame by frame through libavif with their
/// own durations, upright, within the limits; a still AVIF stays a still picture.
@Suite(.enabled(if: NewerFormatFiles.encodersAvailable, "heif-enc, avifenc or cjxl is missing: run scripts/setup"))
struct AVIFSequenceTests {
    let scratch: URL

    init() throws { scratch = try NewerFormatFiles.scratchDirectory() }

    // No deinit in a struct: each test removes its own files.
    private func removeScratch() { try? FileManager.default.removeItem(at: scratch) }

    /// Six frames of the stepping bar, 150, 5, 40, 150, 150 and 150 ms.
    private func steppingBar(extra: [String] = []) throws -> [UInt8] {
        let pngs = try AVIFSequenceFiles.steppingBar(count: 6, in: scratch)
        let ticks = [150, 5, 40, 150, 150, 150]
        let path = try AVIFSequenceFiles.make(zip(pngs, ticks).map { (png: $0, ticks: $1) }, extra: extra,
                                              output: scratch.appendingPathComponent("bar.avif").path)
        return try ImageDecoder.readFile(at: path)
    }

    /// Two photos of one size, shown in turn: frames a decoder cannot get right by accident.
    private func photos(extra: [String] = []) throws -> [UInt8] {
        let frames = ["astronaut.png", "camera.png", "astronaut.png"].map {
            (png: AVIFSequenceFiles.photo($0), ticks: 100)
        }
        let path = try AVIFSequenceFiles.make(frames, extra: extra,
                                              output: scratch.appendingPathComponent("photos.avif").path)
        return try ImageDecoder.readFile(at: path)
    }

    @Test func framesPlayInOrderWithTheirDurationsAndLoop() throws {
        defer { removeScratch() }
        let bytes = try steppingBar()
        let reader = try #require(try AnimationReader.open(bytes))
        #expect(reader.format == .avif && reader.canvasSize == PixelSize(width: 96, height: 64))

        var read: [AnimationFrame] = []
        for _ in 0..<13 { read.append(try reader.next()) }

        // Frame f shows the bar at x = 16 f (lossless: exact), and the loop starts again after the sixth.
        for (index, frame) in read.enumerated() {
            let bar = index % 6
            #expect(frame.bitmap[bar * 16 + 8, 32] == RGBA(r: 255, g: 255, b: 255), "frame \(index)")
            #expect(frame.bitmap[(bar + 1) % 6 * 16 + 8, 32] == RGBA(r: 0, g: 0, b: 0), "frame \(index)")
        }
        let delays: [Duration] = [150, 5, 40, 150, 150, 150].map { .milliseconds($0) }
        let shown: [Duration] = [150, 100, 40].map { .milliseconds($0) }
        #expect(read[0..<6].map(\.delay) == delays)
        #expect(read[0..<3].map(\.displayTime) == shown, "the browsers' floor")
        #expect(Array(read[6..<12]) == Array(read[0..<6]))
        #expect(reader.framesPerLoop == 6 && reader.warning == nil)
    }

    /// Lossy and 4:2:0, as cameras and web servers write them: each frame within a mean error of 3 (of 255, over 4x4
    /// blocks) of the photo it was made from, as the stills are held to; a wrong matrix or chroma siting costs 20 or
    /// more. (Measured: 0.9 here, and 0.6 between the first frame and libheif's still of it.)
    @Test func lossyFramesDecodeToTheirSources() throws {
        defer { removeScratch() }
        let names = ["astronaut.png", "camera.png", "astronaut.png"]
        // aom 3.6 stops on an assertion in its rate control for sequences unless the quality mode is constant.
        let path = try AVIFSequenceFiles.make(names.map { (png: AVIFSequenceFiles.photo($0), ticks: 100) },
                                              lossless: false, extra: ["-y", "420", "--min", "10", "--max", "30",
                                                                       "-a", "end-usage=q", "-a", "cq-level=20"],
                                              output: scratch.appendingPathComponent("lossy.avif").path)
        let reader = try #require(try AnimationReader.open(try ImageDecoder.readFile(at: path)))
        for name in names {
            let source = try ImageDecoder.decodeFile(at: AVIFSequenceFiles.photo(name)).bitmap
            #expect(ImageDifference.meanAbsolute(try reader.next().bitmap, source, block: 4) <= 3, "\(name)")
        }
    }

    /// The first frame is the picture libheif decodes for the still (the sequence's primary item holds the same AV1
    /// frame; the two libraries' YCbCr conversions may differ by a step of rounding).
    @Test(arguments: [[String](), ["--irot", "1"], ["--irot", "3"]])
    func firstFrameIsTheStillPicture(extra: [String]) throws {
        defer { removeScratch() }
        let bytes = try photos(extra: extra)
        let still = try ImageDecoder.decode(bytes).bitmap
        let reader = try #require(try AnimationReader.open(bytes))
        let frames = try (0..<3).map { _ in try reader.next().bitmap }
        #expect(reader.canvasSize == PixelSize(width: still.width, height: still.height))
        #expect(ImageDifference.meanAbsolute(frames[0], still, block: 1) <= 1)
        #expect(ImageDifference.meanAbsolute(frames[1], still, block: 4) > 20, "the second frame is the other photo")
        #expect(frames[2] == frames[0])
    }

    /// `imir` as libavif 0.11 and the current HEIF text name it: mode 0 exchanges top and bottom, mode 1 left and
    /// right, after `irot`'s quarter turns anticlockwise.
    @Test(arguments: [(["--imir", "0"], ExifOrientation.downMirrored), (["--imir", "1"], .upMirrored),
                      (["--irot", "1", "--imir", "0"], .leftMirrored), (["--irot", "2"], .down),
                      (["--irot", "3", "--imir", "1"], .leftMirrored)])
    func rotationAndMirroringTurnEveryFrame(extra: [String], orientation: ExifOrientation) throws {
        defer { removeScratch() }
        let upright = try #require(try AnimationReader.open(try photos())).next().bitmap
        let turned = try #require(try AnimationReader.open(try photos(extra: extra)))
        #expect(try turned.next().bitmap == upright.applying(orientation))
    }

    @Test func aStillAVIFIsNoAnimation() throws {
        defer { removeScratch() }
        let still = try ImageDecoder.readFile(at: try NewerFormatFiles.make(.avif, in: scratch))
        #expect(try AnimationReader.open(still) == nil)
        // A sequence of one frame is a still picture too.
        let one = try AVIFSequenceFiles.make([(png: AVIFSequenceFiles.photo("chelsea.png"), ticks: 100)],
                                             output: scratch.appendingPathComponent("one.avif").path)
        #expect(try AnimationReader.open(try ImageDecoder.readFile(at: one)) == nil)
    }

    /// The memory the decoder and the frames need, and the size, are checked from the boxes before any frame is
    /// decoded.
    @Test func limitsAreCheckedBeforeDecoding() throws {
        defer { removeScratch() }
        let bytes = try steppingBar()
        // 96x64, 4:4:4 with alpha, 8 bits: ten frames of four samples a pixel, and our bitmap.
        let cost = 96 * 64 * (10 * 4 + 4)
        #expect(throws: DecodeError.needsTooMuchMemory(bytes: cost, limit: cost - 1)) {
            try AnimationReader.open(bytes, options: DecodeOptions(maxMemory: cost - 1))
        }
        #expect(throws: DecodeError.imageTooLarge(width: 96, height: 64, limit: 6000)) {
            try AnimationReader.open(bytes, options: DecodeOptions(maxPixels: 6000))
        }
        // Room for the decoder and one frame, but not for the frame the player holds meanwhile: no second frame, so
        // no animation (the still picture stays). With room for it, every frame plays.
        #expect(try AnimationReader.open(bytes, options: DecodeOptions(maxMemory: cost)) == nil)
        let reader = try #require(try AnimationReader.open(bytes,
                                                           options: DecodeOptions(maxMemory: cost + 96 * 64 * 4)))
        for _ in 0..<7 { _ = try reader.next() }
        #expect(reader.framesPerLoop == 6 && reader.warning == nil)

        // Frames are shown as they are read, so the pixel limit holds each frame, not a loop's frames together.
        let small = try #require(try AnimationReader.open(bytes, options: DecodeOptions(maxPixels: 96 * 64)))
        for _ in 0..<7 { _ = try small.next() }
        #expect(small.framesPerLoop == 6 && small.warning == nil)
    }

    /// More frames than a decode reads: refused from the boxes, since libavif lists every frame before the first
    /// is decoded (and keeps a record of each).
    @Test func framesBeyondTheLimitAreRefused() throws {
        defer { removeScratch() }
        let bytes = try steppingBar()
        #expect(throws: DecodeError.unsupported(.avif, reason: "the sequence has more than the 5 frames one decode "
                                                    + "reads")) {
            try AnimationReader.open(bytes, options: DecodeOptions(maxFrames: 5))
        }
        let million = AVIFSequenceFiles.declaringSamplesPerChunk(1_000_000, in: bytes)
        #expect(throws: DecodeError.unsupported(.avif, reason: "the sequence has more than the 10000 frames one "
                                                    + "decode reads")) {
            try AnimationReader.open(million)
        }
    }

    /// Track headers declaring 65535x65535 or 20000x20000 (over libavif's ceilings) are refused from the boxes by
    /// libavif, 12000x12000 by the pixel limit, and 9000x9000 (within it) by the memory its decode would need.
    @Test func hugeDeclaredSizesAreRefused() throws {
        defer { removeScratch() }
        let bytes = try steppingBar()
        for side in [65535, 20000] {
            let huge = AVIFSequenceFiles.declaringTrackSize(width: side, height: side, in: bytes)
            #expect(throws: DecodeError.unsupported(.avif, reason: "avifDecoderParse: BMFF parsing failed (Track ID "
                                                        + "[0] dimensions are too large [\(side)x\(side)])")) {
                try AnimationReader.open(huge)
            }
        }
        #expect(throws: DecodeError.imageTooLarge(width: 12000, height: 12000, limit: 100_000_000)) {
            try AnimationReader.open(AVIFSequenceFiles.declaringTrackSize(width: 12000, height: 12000, in: bytes))
        }
        let large = AVIFSequenceFiles.declaringTrackSize(width: 9000, height: 9000, in: bytes)
        let error = try #require(throws: DecodeError.self) { try AnimationReader.open(large) }
        guard case .needsTooMuchMemory = error else {
            Issue.record("9000x9000: \(error)")
            return
        }
    }

    /// Cut anywhere, a sequence is a typed error naming AVIF (or would play the frames before the cut, with a warning).
    @Test func cutSequencesFailOrPlayWhatTheyHave() throws {
        defer { removeScratch() }
        let bytes = try photos()
        var played: [Int] = []
        for length in [40, 200, 1000, bytes.count / 2, bytes.count - 1] {
            let cut = Array(bytes.prefix(length))
            do throws(DecodeError) {
                guard let reader = try AnimationReader.open(cut) else { continue }
                for _ in 0..<4 { _ = try reader.next() }
                #expect(reader.framesPerLoop.map { $0 < 3 } ?? false, "cut to \(length)")
                #expect(reader.warning?.contains("AVIF") == true, "cut to \(length): \(reader.warning ?? "")")
                played.append(length)
            } catch {
                #expect(error.description.contains("AVIF"), "cut to \(length): \(error)")
            }
        }
        #expect(played.isEmpty, "libavif checks the boxes' sizes against the file's before any frame")
    }

    /// Damage in the coded frames near the end of the file: the frames before it play, and the warning says why the
    /// loop is short.
    @Test func damageInALaterFramePlaysTheFramesBeforeIt() throws {
        defer { removeScratch() }
        var bytes = try steppingBar()
        for index in bytes.count - 16..<bytes.count - 12 { bytes[index] ^= 0xFF }
        let reader = try #require(try AnimationReader.open(bytes))
        for _ in 0..<8 { _ = try reader.next() }
        let kept = try #require(reader.framesPerLoop)
        #expect(kept >= 2 && kept < 6)
        #expect(reader.warning?.hasPrefix("the AVIF sequence is damaged after \(kept) frame(s) (avifDecoderNextImage: "
                                          + "Decoding of color planes failed") == true, "\(reader.warning ?? "")")
    }

    /// Bytes flipped all over a sequence (every 101st from the 64th on, another pattern each round): frames of the
    /// declared size, or a typed error, never a crash.
    @Test func flippedBytesPlayOrFailCleanly() throws {
        defer { removeScratch() }
        let bytes = try steppingBar()
        for round in 0..<16 {
            var damaged = bytes
            for index in stride(from: 64 + round * 13, to: damaged.count, by: 101) { damaged[index] ^= 0x5A }
            do throws(DecodeError) {
                guard let reader = try AnimationReader.open(damaged) else { continue }
                for _ in 0..<8 {
                    let frame = try reader.next()
                    #expect(frame.bitmap.width == reader.canvasSize.width, "round \(round)")
                }
            } catch {
                #expect(error.description.contains("AVIF"), "round \(round): \(error)")
            }
        }
    }

    @Test(arguments: [(150, 1000, 150_000_000), (1, 30, 33_333_333), (0, 1000, 0), (7, 0, 0),
                      (UInt64.max, 1, 3_600_000_000_000)] as [(UInt64, UInt64, Int64)])
    func durationsComeFromTheTimescale(ticks: UInt64, timescale: UInt64, nanoseconds: Int64) {
        #expect(AVIFSequenceFrames.duration(ticks: ticks, timescale: timescale) == .nanoseconds(nanoseconds))
    }
}
