import CGIF
import Pixels

/// A GIF's frames read one at a time onto its logical screen, the way browsers composite them (transparent
/// background, disposal methods 1 to 3, local palettes, interlacing, frames clipped to the screen).
///
/// Both readers of GIFs use it: `GIFDecoder` keeps the frames (or the first), `AnimationReader` shows each and lets
/// it go. The reader holds the canvas, a saved canvas while a frame asks to be undone, and one frame's palette
/// indices; what else is held is the caller's, and the caller says how many canvases that is (`framesHeld`), so
/// that the memory check counts them. A read whose task is cancelled stops before the next frame or line.
struct GIFFrameReader {
    let width: Int, height: Int
    private(set) var pixels: [UInt8]
    /// Frames composited so far.
    private(set) var framesRead = 0
    /// Frames met so far, composited or skipped.
    private var framesSeen = 0
    /// The pixels of the frames decoded so far, each at its own size (a frame may be larger than the canvas):
    /// where frames are decoded ahead, together they stay within the pixel limit, as the work of decoding them does.
    private var decodedPixels = 0
    private var control = GIFFrameReader.noControl
    private var pending = Disposal.keep
    private var indices: [UInt8] = []
    /// Set when a frame was drawn from damaged data: the file cannot be read past it.
    private var endWarning: String?
    private var ended = false

    private static let noControl = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0,
                                                        TransparentColor: NO_TRANSPARENT_COLOR)

    /// What a frame leaves behind for the next one.
    private enum Disposal {
        case keep
        case clear(Rect)
        case restore([UInt8])
    }

    private struct Rect { var left, top, width, height: Int }

    init(width: Int, height: Int, options: DecodeOptions) throws(DecodeError) {
        try options.checkPixelCount(width: width, height: height, format: .gif)
        try options.checkMemory(DecodeCost.gif(canvas: PixelSize(width: width, height: height), largestFrame: 0))
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)  // transparent, as browsers start
    }

    /// Reads records up to the next frame and composites it. A giflib failure before any frame throws; after one it
    /// ends the file with a warning. `framesHeld` canvases besides the reader's count towards `options.maxMemory`:
    /// the first frame over it throws, a later one ends the file with a warning. `limitsPixelsDecoded`: the frames
    /// decoded so far count towards `options.maxPixels` together, where they are decoded ahead (`GIFDecoder`); a
    /// player reads a frame only to show it (at most 50 a second), so its work is bounded by the clock instead.
    mutating func next(from gif: UnsafeMutablePointer<GifFileType>, options: DecodeOptions, framesHeld: Int,
                       limitsPixelsDecoded: Bool = true) throws(DecodeError) -> AnimationStep {
        if ended { return .end(warning: endWarning) }
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK else { return try failure("DGifGetRecordType", gif) }
            switch record {
            case EXTENSION_RECORD_TYPE:
                if let failed = readExtension(gif) { return try failure(failed, gif) }
            case IMAGE_DESC_RECORD_TYPE:
                try DecodeCancellation.check()
                // giflib keeps a record of every frame it reads, about 8 µs and 50 bytes each: 3 million 1x1
                // frames (45 MB of file) took 26 s and 166 MB, even skipped.
                if framesSeen >= options.maxFrames { return end(options.frameCountWarning(kept: framesRead)) }
                guard DGifGetImageDesc(gif) == GIF_OK else { return try failure("DGifGetImageDesc", gif) }
                return try readFrame(gif, options: options, framesHeld: framesHeld,
                                     limitsPixelsDecoded: limitsPixelsDecoded)
            case TERMINATE_RECORD_TYPE:
                return end(nil)
            default:
                return try failure("DGifGetRecordType", gif)
            }
        }
    }

    /// Walks the rest of the file without decompressing its frames, to learn whether it is whole (a file cut
    /// short warns as a cut-short JPEG does). Returns the warning, if any.
    mutating func skipRest(of gif: UnsafeMutablePointer<GifFileType>, options: DecodeOptions) -> String? {
        if ended { return endWarning }
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK else { return damaged("DGifGetRecordType", gif) }
            switch record {
            case EXTENSION_RECORD_TYPE:
                if let failed = readExtension(gif) { return damaged(failed, gif) }
            case IMAGE_DESC_RECORD_TYPE:
                if framesSeen >= options.maxFrames || Task.isCancelled { return nil }
                guard DGifGetImageDesc(gif) == GIF_OK else { return damaged("DGifGetImageDesc", gif) }
                guard skipImageData(gif) else { return damaged("DGifGetCode", gif) }
                framesSeen += 1
            case TERMINATE_RECORD_TYPE:
                return nil
            default:
                return damaged("DGifGetRecordType", gif)
            }
        }
    }

    /// Reads an extension record, keeping a graphics control block for the next frame; the failing function's
    /// name, or nil.
    private mutating func readExtension(_ gif: UnsafeMutablePointer<GifFileType>) -> String? {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(gif, &code, &block) == GIF_OK else { return "DGifGetExtension" }
        if code == GRAPHICS_EXT_FUNC_CODE, let block {
            // The first byte is the block's length; giflib's parser wants the bytes after it.
            _ = DGifExtensionToGCB(Int(block[0]), block + 1, &control)
        }
        while block != nil {
            guard DGifGetExtensionNext(gif, &block) == GIF_OK else { return "DGifGetExtensionNext" }
        }
        return nil
    }

    /// Decodes the frame whose descriptor giflib just read and draws it on the canvas.
    private mutating func readFrame(_ gif: UnsafeMutablePointer<GifFileType>, options: DecodeOptions,
                                    framesHeld: Int, limitsPixelsDecoded: Bool) throws(DecodeError) -> AnimationStep {
        let desc = gif.pointee.Image
        let frame = Rect(left: Int(desc.Left), top: Int(desc.Top), width: Int(desc.Width), height: Int(desc.Height))
        guard frame.width > 0, frame.height > 0 else {
            // giflib cannot skip the pixel data of an empty frame, so nothing after it can be read.
            return try failure("frame \(framesRead + 1) is empty (\(frame.width)x\(frame.height))", gif)
        }
        try options.checkPixelCount(width: frame.width, height: frame.height, format: .gif)
        // What the canvas, the frames held, a saved canvas and the index buffer hold once this frame is read.
        var restoring = false
        if case .restore = pending { restoring = true }
        let memory = DecodeCost.gif(canvas: PixelSize(width: width, height: height),
                                    largestFrame: max(indices.count, frame.width * frame.height))
            + (framesHeld + (restoring ? 1 : 0)) * DecodeCost.rgba(PixelSize(width: width, height: height))
        decodedPixels += frame.width * frame.height
        if framesRead == 0 {
            try options.checkMemory(memory)
        } else if memory > options.maxMemory || limitsPixelsDecoded && decodedPixels > options.maxPixels {
            return end(options.framesLimitWarning(kept: framesRead, memory: memory))
        }
        guard let colourMap = desc.ColorMap ?? gif.pointee.SColorMap else {
            return try failure("frame \(framesRead + 1) has no colour table", gif)
        }

        // giflib hands out lines in file order; an interlaced frame stores rows in four passes.
        let rowOrder: [Int] = desc.Interlace
            ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { stride(from: $0.0, to: frame.height, by: $0.1) }
            : Array(0..<frame.height)
        if indices.count < frame.width * frame.height {
            indices = [UInt8](repeating: 0, count: frame.width * frame.height)
        }
        var linesRead = 0
        var lineFailure: String?
        var cancelled = false
        indices.withUnsafeMutableBufferPointer { buffer in
            for row in rowOrder {
                // A frame's LZW data is bounded by its pixels, but a large frame still takes a while.
                if Task.isCancelled { cancelled = true; return }
                guard DGifGetLine(gif, buffer.baseAddress! + row * frame.width, Int32(frame.width)) == GIF_OK else {
                    lineFailure = "DGifGetLine"
                    return
                }
                linesRead += 1
            }
        }
        if cancelled { throw .cancelled }
        if let lineFailure, framesRead > 0 || linesRead == 0 { return try failure(lineFailure, gif) }

        dispose(pending)
        switch control.DisposalMode {
        case DISPOSE_BACKGROUND: pending = .clear(frame)
        case DISPOSE_PREVIOUS: pending = .restore(pixels)
        default: pending = .keep
        }
        draw(frame: frame, rows: rowOrder.prefix(linesRead), colourMap: colourMap.pointee,
             transparent: Int(control.TransparentColor))
        framesSeen += 1
        framesRead += 1
        let delay = Duration.milliseconds(10 * Int(control.DelayTime))
        control = Self.noControl
        if let lineFailure {
            ended = true
            endWarning = "the GIF data is damaged or cut short in its first frame (\(lineFailure): "
                + "\(GIFDecoder.errorText(gif.pointee.Error))); the image is drawn as far as it goes"
        }
        return .frame(AnimationFrame(bitmap: Bitmap(width: width, height: height, pixels: pixels), delay: delay))
    }

    /// Ends the file: nothing is read after this.
    private mutating func end(_ warning: String?) -> AnimationStep {
        ended = true
        endWarning = warning
        return .end(warning: warning)
    }

    /// Ends reading on a giflib failure: an error before any frame, a warning after one.
    private mutating func failure(_ what: String, _ gif: UnsafeMutablePointer<GifFileType>) throws(DecodeError)
        -> AnimationStep {
        let reason = "\(what): \(GIFDecoder.errorText(gif.pointee.Error))"
        guard framesRead > 0 else { throw .corrupt(.gif, reason: reason) }
        return end("the GIF data is damaged or cut short after \(framesSeen) frame(s) (\(reason))")
    }

    /// The warning for a failure met while skipping.
    private mutating func damaged(_ what: String, _ gif: UnsafeMutablePointer<GifFileType>) -> String {
        let reason = "\(what): \(GIFDecoder.errorText(gif.pointee.Error))"
        ended = true
        endWarning = "the GIF data is damaged or cut short after \(framesSeen) frame(s) (\(reason))"
        return endWarning!
    }

    /// Reads past a frame's compressed data block by block without decompressing it; false when giflib fails.
    private func skipImageData(_ gif: UnsafeMutablePointer<GifFileType>) -> Bool {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetCode(gif, &codeSize, &block) == GIF_OK else { return false }
        while block != nil {
            guard DGifGetCodeNext(gif, &block) == GIF_OK else { return false }
        }
        return true
    }

    /// Undoes the previous frame as its disposal method says, before the next frame is drawn.
    private mutating func dispose(_ disposal: Disposal) {
        switch disposal {
        case .keep:
            break
        case .restore(let saved):
            pixels = saved
        case .clear(let rect):
            // "Restore to background" means transparent in every browser, whatever the background index says.
            let x0 = min(rect.left, width), x1 = min(rect.left + rect.width, width)
            let y1 = min(rect.top + rect.height, height)
            guard x0 < x1 else { return }
            let width = self.width
            pixels.withUnsafeMutableBytes { canvas in
                for y in min(rect.top, height)..<y1 {
                    canvas.baseAddress!.advanced(by: (y * width + x0) * 4).initializeMemory(
                        as: UInt8.self, repeating: 0, count: (x1 - x0) * 4)
                }
            }
        }
    }

    /// Draws the given rows of the frame's palette indices onto the canvas, clipped, skipping transparent pixels.
    private mutating func draw(frame: Rect, rows: ArraySlice<Int>, colourMap: ColorMapObject, transparent: Int) {
        // 256 RGBA entries, little-endian so that a store writes R, G, B, A in memory order; indices beyond the
        // colour table are transparent.
        var palette = [UInt32](repeating: 0, count: 256)
        for i in 0..<min(Int(colourMap.ColorCount), 256) where i != transparent {
            let colour = colourMap.Colors[i]
            palette[i] = (UInt32(colour.Red) | UInt32(colour.Green) << 8 | UInt32(colour.Blue) << 16 | 0xFF00_0000)
                .littleEndian
        }
        let visibleWidth = min(frame.left + frame.width, width) - frame.left
        guard visibleWidth > 0 else { return }
        let width = self.width, height = self.height
        pixels.withUnsafeMutableBytes { canvas in
            indices.withUnsafeBufferPointer { indices in
                palette.withUnsafeBufferPointer { palette in
                    for row in rows where frame.top + row < height {
                        var source = row * frame.width
                        var target = ((frame.top + row) * width + frame.left) * 4
                        for _ in 0..<visibleWidth {
                            let index = Int(indices[source])
                            if index != transparent {
                                canvas.storeBytes(of: palette[index], toByteOffset: target, as: UInt32.self)
                            }
                            source += 1
                            target += 4
                        }
                    }
                }
            }
        }
    }
}
