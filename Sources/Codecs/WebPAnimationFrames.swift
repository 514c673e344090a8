import CWebP
import Pixels

/// An animated WebP's frames for `AnimationReader`, through libwebpdemux's `WebPAnimDecoder`, which composites each
/// frame onto the canvas and rewinds with `WebPAnimDecoderReset`. (CWebP's shim holds no state, so this second file
/// importing it shares nothing by accident.)
struct WebPAnimationFrames: AnimationFrames {
    let canvasSize: PixelSize
    var format: ImageFormat { .webp }
    private let decoder: Decoder
    private var framesRead = 0
    private var previousTimestamp: Int32 = 0

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
        // libwebp's two canvases and ours, and the frame the player holds while the next is read.
        try options.checkMemory(DecodeCost.webpAnimation(canvas: canvasSize) + DecodeCost.rgba(canvasSize))
    }

    mutating func next(options: DecodeOptions) throws(DecodeError) -> AnimationStep {
        try DecodeCancellation.check()
        guard WebPAnimDecoderHasMoreFrames(decoder.pointer) != 0 else { return .end(warning: nil) }
        guard framesRead < options.maxFrames else { return .end(warning: options.frameCountWarning(kept: framesRead)) }
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

    mutating func rewind(options: DecodeOptions) throws(DecodeError) {
        WebPAnimDecoderReset(decoder.pointer)
        framesRead = 0
        previousTimestamp = 0
    }
}
