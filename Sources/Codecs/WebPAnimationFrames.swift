import CWebP
import Pixels

/// An animated WebP's frames read one at a time through libwebpdemux's `WebPAnimDecoder`, which composites each
/// frame onto the canvas and rewinds with `WebPAnimDecoderReset`: `WebPDecoder` keeps them (or the first),
/// `AnimationReader` shows each and lets it go. The caller says how many canvases it holds besides libwebp's
/// (`framesHeld`), so that the memory check counts them. (CWebP's shim holds no state, so this second file importing
/// it shares nothing by accident.)
struct WebPAnimationFrames: AnimationFrames {
    let canvasSize: PixelSize
    var format: ImageFormat { .webp }
    private let decoder: Decoder
    private var framesRead = 0
    private var previousTimestamp: Int32 = 0
    /// Frames are decoded at their own size (often a small rectangle that changed) and kept as whole canvases: the
    /// pixels decoded stay within the pixel limit, and the canvases held within the memory limit.
    private var decodedPixels = 0

    /// Owns the libwebp decoder, which reads the caller's bytes in place (they must outlive it).
    private final class Decoder {
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { WebPAnimDecoderDelete(pointer) }
    }

    init(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(DecodeError) {
        var animationOptions = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&animationOptions) != 0 else {
            throw .unsupported(.webp, reason: "WebPAnimDecoderOptionsInit: libwebpdemux does not match its headers")
        }
        animationOptions.color_mode = MODE_RGBA
        animationOptions.use_threads = 0
        var data = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let pointer = WebPAnimDecoderNew(&data, &animationOptions) else {
            throw .corrupt(.webp, reason: "WebPAnimDecoderNew: the animation's chunks are damaged or cut short")
        }
        decoder = Decoder(pointer)
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(pointer, &info) != 0 else {
            throw .corrupt(.webp, reason: "WebPAnimDecoderGetInfo failed")
        }
        canvasSize = PixelSize(width: Int(info.canvas_width), height: Int(info.canvas_height))
        try options.checkPixelCount(width: canvasSize.width, height: canvasSize.height, format: .webp)
        try options.checkMemory(DecodeCost.webpAnimation(canvas: canvasSize))
    }

    /// The next frame, composited. Past the first: the frame limit, the memory limit (libwebp's canvases and the
    /// `framesHeld` ones) and, where the frames are decoded ahead (`limitsPixelsDecoded`), the pixel limit end the
    /// file with a warning, as damage after the first frame does.
    mutating func next(options: DecodeOptions, framesHeld: Int,
                       limitsPixelsDecoded: Bool = true) throws(DecodeError) -> AnimationStep {
        try DecodeCancellation.check()
        guard WebPAnimDecoderHasMoreFrames(decoder.pointer) != 0 else { return .end(warning: nil) }
        let area = frameArea(number: framesRead + 1) ?? canvasSize.width * canvasSize.height
        if framesRead > 0 {
            guard framesRead < options.maxFrames else {
                return .end(warning: options.frameCountWarning(kept: framesRead))
            }
            decodedPixels += area
            let memory = DecodeCost.webpAnimation(canvas: canvasSize) + framesHeld * DecodeCost.rgba(canvasSize)
            guard memory <= options.maxMemory, !limitsPixelsDecoded || decodedPixels <= options.maxPixels else {
                return .end(warning: options.framesLimitWarning(kept: framesRead, memory: memory))
            }
        } else {
            decodedPixels = area
        }
        var buffer: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder.pointer, &buffer, &timestamp) != 0, let buffer else {
            let reason = "WebPAnimDecoderGetNext failed on frame \(framesRead + 1)"
            guard framesRead > 0 else { throw .corrupt(.webp, reason: reason) }
            return .end(warning: "the WebP animation is damaged after \(framesRead) frame(s) (\(reason))")
        }
        let pixels = [UInt8](UnsafeBufferPointer(start: buffer, count: canvasSize.width * canvasSize.height * 4))
        framesRead += 1
        // Timestamps are the end time of each frame in milliseconds.
        defer { previousTimestamp = timestamp }
        return .frame(AnimationFrame(bitmap: Bitmap(width: canvasSize.width, height: canvasSize.height,
                                                    pixels: pixels),
                                     delay: .milliseconds(Int(timestamp - previousTimestamp))))
    }

    /// For a player, which holds the frame it shows while the next is read, and reads a frame only to show it:
    /// its work is bounded by the clock (at most 50 frames a second), not by the pixels of a whole loop, which
    /// would end a 1080p clip after about 48 frames.
    mutating func next(options: DecodeOptions) throws(DecodeError) -> AnimationStep {
        try next(options: options, framesHeld: 1, limitsPixelsDecoded: false)
    }

    mutating func rewind(options: DecodeOptions) throws(DecodeError) {
        WebPAnimDecoderReset(decoder.pointer)
        framesRead = 0
        previousTimestamp = 0
        decodedPixels = 0
    }

    /// The size of frame `number` (1-based) as the file stores it, or nil when the demuxer does not know it.
    private func frameArea(number: Int) -> Int? {
        var iterator = WebPIterator()
        guard let demuxer = WebPAnimDecoderGetDemuxer(decoder.pointer),
              WebPDemuxGetFrame(demuxer, Int32(number), &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseIterator(&iterator) }
        return Int(iterator.width) * Int(iterator.height)
    }
}
