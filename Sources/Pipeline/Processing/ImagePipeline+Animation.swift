import Cells
import Codecs
import FoundationEssentials
import Pixels

/// An animated picture's frames, for a player: the bytes and how to draw them, handed out by the pipeline.
public struct AnimationSource: Sendable {
    let bytes: [UInt8]
    let request: ThumbnailRequest
    let processing: ImageProcessing

    /// A reader of the frames, each drawn as the request asks (the fit of the first frame, as the still picture
    /// has it). Owned by the task that plays it; nil when the bytes hold no animation after all.
    public func frames() throws(DecodeError) -> RenderedFrames? {
        guard let reader = try AnimationReader.open(bytes) else { return nil }
        return RenderedFrames(reader: reader, request: request, processing: processing)
    }
}

/// An animation's frames drawn as cells, one at a time, again from the start after the last. Not `Sendable`: the
/// task that plays the animation owns it, and decodes and draws off the main actor.
public final class RenderedFrames {
    private let reader: AnimationReader
    private let request: ThumbnailRequest
    private let processing: ImageProcessing
    private let fit: PictureFit

    init(reader: AnimationReader, request: ThumbnailRequest, processing: ImageProcessing) {
        self.reader = reader
        self.request = request
        self.processing = processing
        fit = processing.fit(reader.canvasSize, request)
    }

    /// Frames a loop shows, once the first loop has ended.
    public var framesPerLoop: Int? { reader.framesPerLoop }

    /// The next frame's cells and how long they show (`AnimationFrame.displayTime`).
    public func next() throws(DecodeError) -> (cells: CellBuffer, displayTime: Duration) {
        let frame = try reader.next()
        let image = DecodedImage(bitmap: frame.bitmap, format: reader.format,
                                 originalWidth: reader.canvasSize.width, originalHeight: reader.canvasSize.height)
        return (processing.render(image, fit, request), frame.displayTime)
    }
}

extension ImagePipeline {
    /// The picture of `request` as an animation to play, or nil when it is a still picture (or its bytes are no
    /// longer at hand: the still picture stays). Its bytes come from memory, the disk cache or a download shared
    /// with any load of the same URL. Throws `PipelineError` as a load does.
    ///
    /// Nonisolated: the bytes are awaited from the actor, and an AVIF is opened (two frames decoded) off it.
    public nonisolated func animation(_ request: ThumbnailRequest) async throws -> AnimationSource? {
        // A bitmap of the picture in memory says its format: a still one needs no bytes read or fetched again.
        if let format = bitmaps.entries(where: { $0.url == request.url }).first?.1.format,
           format != .gif, format != .webp, format != .avif { return nil }
        let (data, _, _) = try await bytes(for: request.url)
        // Opened here, not only when played: a still picture (a GIF or WebP of one frame, a still AVIF) and an
        // animation that cannot play (damaged in its first two frames, over the limits, libavif missing) stay the
        // still picture already drawn, without a pane that says it plays over a picture that never moves.
        guard (try? AnimationReader.open(data.bytes)) != nil else { return nil }
        return AnimationSource(bytes: data.bytes, request: request, processing: processing)
    }
}

extension AnimationSource {
    /// A reader of the frames in pixels, each fitted into `box` as the still picture in pixels is (`PixelFit`: never
    /// enlarged), for a player that draws them in pixels; nil when the bytes hold no animation after all.
    public func pixelFrames(in box: PixelSize) throws(DecodeError) -> FittedFrames? {
        guard let reader = try AnimationReader.open(bytes) else { return nil }
        return FittedFrames(reader: reader, fit: PixelFit(imageSize: reader.canvasSize, in: box))
    }
}

/// An animation's frames fitted into a box of pixels, one at a time, again from the start after the last. Not
/// `Sendable`, as `RenderedFrames`: the task that plays the animation owns it.
public final class FittedFrames {
    private let reader: AnimationReader
    /// The size every frame is sent at.
    public let fit: PixelFit

    init(reader: AnimationReader, fit: PixelFit) {
        self.reader = reader
        self.fit = fit
    }

    /// Frames a loop shows, once the first loop has ended.
    public var framesPerLoop: Int? { reader.framesPerLoop }

    /// The next frame's pixels at `fit.size` and how long they show (`AnimationFrame.displayTime`).
    public func next() throws(DecodeError) -> (bitmap: Bitmap, displayTime: Duration) {
        let frame = try reader.next()
        return (fit.scale(frame.bitmap), frame.displayTime)
    }
}
