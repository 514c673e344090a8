import FoundationEssentials
import Pixels

/// An animated GIF or WebP, or an AVIF sequence, read one frame at a time, again from the start after its last frame:
/// what a player shows.
///
/// Only what the next frame needs is held (the canvas and the decoder's own state, never the frames already
/// shown), so an animation of any length plays within `DecodeOptions.maxMemory`; `maxFrames` ends a loop early (an
/// AVIF sequence of more frames is refused: libavif lists every frame before it decodes one).
/// Frames are whole canvases at the file's size. Not `Sendable`: one task owns a reader, and a read in a cancelled
/// task ends with `DecodeError.cancelled`.
public final class AnimationReader {
    public let format: ImageFormat
    /// The canvas every frame fills, in pixels.
    public let canvasSize: PixelSize
    /// Why the first loop ended before the file did (damage, the frame limit), once it has ended.
    public private(set) var warning: String?
    /// Frames a loop shows, known once the first loop has ended.
    public private(set) var framesPerLoop: Int?

    private let bytes: UnsafeMutableRawBufferPointer
    private let options: DecodeOptions
    private var frames: any AnimationFrames
    private var readThisLoop = 0

    /// A reader of `bytes` when they hold an animation of at least two frames; nil for a still image (or an
    /// animation of one frame), which the caller shows as it is. Errors are those of a decode.
    public static func open(_ bytes: some ContiguousBytes,
                            options: DecodeOptions = .init()) throws(DecodeError) -> AnimationReader? {
        let sniffed = bytes.withUnsafeBytes { buffer in
            Result { () throws(DecodeError) -> ImageFormat? in
                try ImageDecoder.checkSize(buffer, options: options)
                switch ImageFormat(sniffing: buffer) {
                case .gif: return .gif
                case .webp: return try WebPDecoder.features(buffer).animated ? .webp : nil
                // libheif 1.15 reads a sequence's first frame only: libavif reads them all.
                case .avif: return AVIFSequenceFrames.isSequence(buffer) ? .avif : nil
                case .some: return nil
                case nil: throw .unknownFormat(firstBytes: DecodeError.describeStart(of: buffer))
                }
            }
        }
        guard let format = try sniffed.get() else { return nil }
        let reader = try AnimationReader(copying: bytes, format: format, options: options)
        // A file with one frame is a still image: ask for a second before saying it is an animation.
        guard case .frame = try reader.frames.next(options: options),
              case .frame = try reader.frames.next(options: options) else { return nil }
        try reader.frames.rewind(options: options)
        return reader
    }

    /// Owns a copy of the bytes (the libraries read them in place for as long as the reader lives).
    private init(copying source: some ContiguousBytes, format: ImageFormat,
                 options: DecodeOptions) throws(DecodeError) {
        bytes = source.withUnsafeBytes { source in
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: source.count, alignment: 16)
            copy.copyMemory(from: source)
            return copy
        }
        self.format = format
        self.options = options
        do throws(DecodeError) {
            let buffer = UnsafeRawBufferPointer(bytes)
            frames = switch format {
            case .gif: try GIFAnimationFrames(buffer, options: options)
            case .webp: try WebPAnimationFrames(buffer, options: options)
            default: try AVIFSequenceFrames(buffer, options: options)
            }
        } catch {
            bytes.deallocate()
            throw error
        }
        canvasSize = frames.canvasSize
    }

    deinit { bytes.deallocate() }

    /// The next frame to show, the first again after the last.
    public func next() throws(DecodeError) -> AnimationFrame {
        switch try frames.next(options: options) {
        case .frame(let frame):
            readThisLoop += 1
            return frame
        case .end(let why):
            if framesPerLoop == nil {
                framesPerLoop = readThisLoop
                warning = why
            }
            readThisLoop = 0
            try frames.rewind(options: options)
            // The first frame read again: `init` saw it, so only a file changed under us could fail here.
            guard case .frame(let frame) = try frames.next(options: options) else {
                throw .corrupt(format, reason: "the animation's first frame could not be read again")
            }
            readThisLoop = 1
            return frame
        }
    }
}

/// What a read of an animation found: the next frame, or the end of the file (with why it ended early, when it did).
enum AnimationStep {
    case frame(AnimationFrame)
    case end(warning: String?)
}

/// One format's frames, read in order and read again from the first.
protocol AnimationFrames {
    var format: ImageFormat { get }
    var canvasSize: PixelSize { get }
    mutating func next(options: DecodeOptions) throws(DecodeError) -> AnimationStep
    mutating func rewind(options: DecodeOptions) throws(DecodeError)
}

/// A GIF's frames: the file is opened again to read them again (giflib reads forwards only).
struct GIFAnimationFrames: AnimationFrames {
    let bytes: UnsafeRawBufferPointer
    var file: GIFFile
    var reader: GIFFrameReader
    var format: ImageFormat { .gif }
    var canvasSize: PixelSize { PixelSize(width: reader.width, height: reader.height) }

    init(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(DecodeError) {
        self.bytes = bytes
        file = try GIFFile(bytes)
        reader = try GIFFrameReader(width: file.screenWidth, height: file.screenHeight, options: options)
    }

    mutating func next(options: DecodeOptions) throws(DecodeError) -> AnimationStep {
        // The player holds the frame it shows while the next is read, and reads a frame only to show it.
        try reader.next(from: file.gif, options: options, framesHeld: 1, limitsPixelsDecoded: false)
    }

    mutating func rewind(options: DecodeOptions) throws(DecodeError) {
        self = try GIFAnimationFrames(bytes, options: options)
    }
}
