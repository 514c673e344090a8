import CGIF
import Pixels

/// GIF through giflib's record-by-record API: every frame composited onto the logical screen the way browsers do
/// (transparent background, disposal methods 1 to 3, local palettes, interlacing, frames clipped to the screen).
///
/// giflib reports failures as error codes and never prints or exits. Records are read one at a time instead of with
/// `DGifSlurp`, so sizes are checked before anything is allocated and a cut-short file still yields the frames it
/// has. GIFs always decode at full size. When only the first frame is wanted the rest of the file is still walked
/// (its image data skipped, not decompressed), so that a file cut short warns as a cut-short JPEG does. A decode
/// whose task is cancelled stops before the next frame or line (`DecodeCancellation`).
enum GIFDecoder {
    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        let source = UnsafeMutablePointer<MemorySource>.allocate(capacity: 1)
        source.initialize(to: MemorySource(bytes: bytes))
        defer { source.deallocate() }
        var status: Int32 = 0
        guard let gif = DGifOpen(source, { gif, buffer, wanted in
            // giflib's input callback: copy the next `wanted` bytes; fewer means the data ended.
            guard let gif, let buffer, let source = gif.pointee.UserData?.assumingMemoryBound(to: MemorySource.self)
            else { return 0 }
            return Int32(source.pointee.read(into: buffer, count: Int(wanted)))
        }, &status) else {
            throw .corrupt(.gif, reason: "DGifOpen: \(errorText(status))")
        }
        defer { DGifCloseFile(gif, &status) }
        var canvas = try Canvas(width: Int(gif.pointee.SWidth), height: Int(gif.pointee.SHeight), options: options)
        return try canvas.readFrames(from: gif, options: options)
    }

    /// The logical screen size, which giflib reports as the canvas (`SWidth` x `SHeight`), read by hand.
    static func size(_ bytes: UnsafeRawBufferPointer) throws(DecodeError) -> PixelSize {
        guard bytes.count >= 10 else {
            throw .corrupt(.gif, reason: "the data is cut short inside its logical screen descriptor")
        }
        return PixelSize(width: Int(bytes[6]) | Int(bytes[7]) << 8, height: Int(bytes[8]) | Int(bytes[9]) << 8)
    }

    static func errorText(_ code: Int32) -> String {
        guard let text = GifErrorString(code) else { return "giflib error \(code)" }
        return String(cString: text)
    }
}

/// The bytes giflib's input callback reads from.
private struct MemorySource {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    mutating func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        let n = max(0, min(count, bytes.count - offset))
        if n > 0 {
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + offset, byteCount: n)
        }
        offset += n
        return n
    }
}

/// The logical screen frames are drawn onto, and the frames so far.
private struct Canvas {
    let width: Int, height: Int
    var pixels: [UInt8]
    var frames: [AnimationFrame] = []

    init(width: Int, height: Int, options: DecodeOptions) throws(DecodeError) {
        try options.checkPixelCount(width: width, height: height, format: .gif)
        try options.checkMemory(DecodeCost.gif(canvas: PixelSize(width: width, height: height), largestFrame: 0))
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)  // transparent, as browsers start
    }

    /// What a frame leaves behind for the next one.
    private enum Disposal {
        case keep
        case clear(Rect)
        case restore([UInt8])
    }

    private struct Rect { var left, top, width, height: Int }

    mutating func readFrames(from gif: UnsafeMutablePointer<GifFileType>,
                             options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        var control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0,
                                           TransparentColor: NO_TRANSPARENT_COLOR)
        var pending = Disposal.keep
        var warning: String?
        var indices: [UInt8] = []
        // The pixels of the frames decoded so far, each at its own size (a frame may be larger than the canvas):
        // together they stay within the pixel limit, as the work of decoding them does.
        var decodedPixels = 0
        // Past the first frame when only that one is wanted: the rest is walked to find out whether it is whole.
        var skipping = false
        var framesSeen = 0

        /// Ends reading on a giflib failure: an error before any frame, a warning after one.
        func failure(_ what: String) throws(DecodeError) {
            let reason = "\(what): \(GIFDecoder.errorText(gif.pointee.Error))"
            guard !frames.isEmpty else { throw .corrupt(.gif, reason: reason) }
            warning = "the GIF data is damaged or cut short after \(framesSeen) frame(s) (\(reason))"
        }

        reading: while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK else { try failure("DGifGetRecordType"); break }
            switch record {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else {
                    try failure("DGifGetExtension")
                    break reading
                }
                if code == GRAPHICS_EXT_FUNC_CODE, let block {
                    // The first byte is the block's length; giflib's parser wants the bytes after it.
                    _ = DGifExtensionToGCB(Int(block[0]), block + 1, &control)
                }
                while block != nil {
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else {
                        try failure("DGifGetExtensionNext")
                        break reading
                    }
                }
            case IMAGE_DESC_RECORD_TYPE:
                try DecodeCancellation.check()
                // giflib keeps a record of every frame it reads, about 8 µs and 50 bytes each: 3 million 1x1
                // frames (45 MB of file) took 26 s and 166 MB, even skipped.
                if framesSeen >= options.maxFrames {
                    if !skipping { warning = options.frameCountWarning(kept: frames.count) }
                    break reading
                }
                guard DGifGetImageDesc(gif) == GIF_OK else { try failure("DGifGetImageDesc"); break reading }
                if skipping {
                    guard skipImageData(gif) else { try failure("DGifGetCode"); break reading }
                    framesSeen += 1
                    continue reading
                }
                let desc = gif.pointee.Image
                let frame = Rect(left: Int(desc.Left), top: Int(desc.Top), width: Int(desc.Width),
                                 height: Int(desc.Height))
                guard frame.width > 0, frame.height > 0 else {
                    // giflib cannot skip the pixel data of an empty frame, so nothing after it can be read.
                    try failure("frame \(frames.count + 1) is empty (\(frame.width)x\(frame.height))")
                    break reading
                }
                try options.checkPixelCount(width: frame.width, height: frame.height, format: .gif)
                // What the canvas, the frames kept, a saved canvas and the index buffer hold once this frame is read.
                var restoring = false
                if case .restore = pending { restoring = true }
                let memory = DecodeCost.gif(canvas: PixelSize(width: width, height: height),
                                            largestFrame: max(indices.count, frame.width * frame.height))
                    + (frames.count + (restoring ? 1 : 0)) * DecodeCost.rgba(PixelSize(width: width, height: height))
                decodedPixels += frame.width * frame.height
                if frames.isEmpty {
                    try options.checkMemory(memory)
                } else if memory > options.maxMemory || decodedPixels > options.maxPixels {
                    warning = options.framesLimitWarning(kept: frames.count, memory: memory)
                    break reading
                }
                guard let colourMap = desc.ColorMap ?? gif.pointee.SColorMap else {
                    try failure("frame \(frames.count + 1) has no colour table")
                    break reading
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
                        guard DGifGetLine(gif, buffer.baseAddress! + row * frame.width, Int32(frame.width)) == GIF_OK
                        else {
                            lineFailure = "DGifGetLine"
                            return
                        }
                        linesRead += 1
                    }
                }
                if cancelled { throw .cancelled }
                if let lineFailure, !frames.isEmpty || linesRead == 0 {
                    try failure(lineFailure)
                    break reading
                }

                dispose(pending)
                switch control.DisposalMode {
                case DISPOSE_BACKGROUND: pending = .clear(frame)
                case DISPOSE_PREVIOUS: pending = .restore(pixels)
                default: pending = .keep
                }
                draw(indices, frame: frame, rows: rowOrder.prefix(linesRead), colourMap: colourMap.pointee,
                     transparent: Int(control.TransparentColor))
                framesSeen += 1
                frames.append(AnimationFrame(bitmap: Bitmap(width: width, height: height, pixels: pixels),
                                             delay: .milliseconds(10 * Int(control.DelayTime))))
                control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0,
                                               TransparentColor: NO_TRANSPARENT_COLOR)
                if let lineFailure {
                    warning = "the GIF data is damaged or cut short in its first frame (\(lineFailure): "
                        + "\(GIFDecoder.errorText(gif.pointee.Error))); "
                        + "the image is drawn as far as it goes"
                    break reading
                }
                skipping = !options.keepsAnimationFrames
            case TERMINATE_RECORD_TYPE:
                break reading
            default:
                try failure("DGifGetRecordType")
                break reading
            }
        }
        guard let first = frames.first else { throw .corrupt(.gif, reason: "the file holds no image") }
        let animation = options.keepsAnimationFrames && frames.count > 1 ? frames : []
        return DecodedImage(bitmap: first.bitmap, format: .gif, originalWidth: width, originalHeight: height,
                            frames: animation, warning: warning)
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

    /// Draws the given rows of a frame's palette indices onto the canvas, clipped, skipping transparent pixels.
    private mutating func draw(_ indices: [UInt8], frame: Rect, rows: ArraySlice<Int>, colourMap: ColorMapObject,
                               transparent: Int) {
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
