import Basics
import CAvif
import Pixels

/// An AVIF image sequence's frames read one at a time through libavif (loaded on first use, see `CAvif`), for
/// `AnimationReader`; a still AVIF stays with `HEIFDecoder`. Each frame is a whole picture in AV1 (no compositing),
/// converted from YCbCr by the matrix and range its colour information names, then cropped, turned and mirrored as the
/// `clap`, `irot` and `imir` properties libavif reports say, in that order (as libheif does for the still image).
///
/// Colour: as `HEIFDecoder`, no gamut conversion of an ICC profile or of nclx primaries to sRGB.
///
/// Debian's libdav1d prints what it finds wrong in a damaged frame to stderr: every call into libavif that can reach it
/// runs inside `QuietStandardError.silencing`, so a damaged file cannot write over the table.
struct AVIFSequenceFrames: AnimationFrames {
    let canvasSize: PixelSize
    var format: ImageFormat { .avif }
    private let avif: cavif_library
    private let decoder: Decoder
    /// The picture as AV1 codes it, before `clap`, `irot` and `imir`.
    private let codedSize: PixelSize
    private let crop: avifCropRect?
    private let orientation: ExifOrientation
    /// What libavif and its AV1 decoder hold while they decode, and our bitmaps (`DecodeCost.avifSequence`).
    private let decodeMemory: Int
    private let frameCount: Int
    private var framesRead = 0

    /// Owns the libavif decoder, which reads the caller's bytes in place (they must outlive it).
    private final class Decoder {
        let pointer: UnsafeMutablePointer<avifDecoder>
        private let destroy: @convention(c) (UnsafeMutablePointer<avifDecoder>) -> Void
        init(_ pointer: UnsafeMutablePointer<avifDecoder>, _ avif: cavif_library) {
            self.pointer = pointer
            destroy = avif.decoder_destroy
        }
        deinit { destroy(pointer) }
    }

    /// Whether `bytes` say they hold an AVIF image sequence: their `ftyp` box lists the `avis` brand, which the AVIF
    /// specification requires of such files. Stills never load libavif.
    static func isSequence(_ bytes: UnsafeRawBufferPointer) -> Bool {
        ImageFormat.isobmffBrands(bytes).contains("avis")
    }

    /// Parses the file's boxes (no frame is decoded) and checks its size, frame count and the memory its decode needs
    /// against `options` before any pixel memory exists.
    init(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(DecodeError) {
        var message: UnsafePointer<CChar>?
        guard let avif = cavif_load(&message)?.pointee else {
            throw .unsupported(.avif, reason: message.map { String(cString: $0) } ?? "libavif did not load")
        }
        guard let pointer = avif.decoder_create() else {
            throw .unsupported(.avif, reason: "avifDecoderCreate: out of memory")
        }
        self.avif = avif
        decoder = Decoder(pointer, avif)
        // One thread, as for HEIF; libavif's own size ceilings (16384x16384 pixels, 32768 a side, checked as it
        // reads the boxes), then ours; and no more frames than a decode reads: libavif keeps a record of every frame
        // it lists.
        pointer.pointee.maxThreads = 1
        pointer.pointee.imageCountLimit = UInt32(clamping: max(1, options.maxFrames))
        pointer.pointee.ignoreExif = 1
        pointer.pointee.ignoreXMP = 1
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        try Self.check(avif.decoder_set_io_memory(pointer, base, bytes.count), "avifDecoderSetIOMemory", avif,
                       pointer, options)
        try Self.check(QuietStandardError.silencing { avif.decoder_parse(pointer) }, "avifDecoderParse", avif,
                       pointer, options)

        let image = pointer.pointee.image.pointee
        codedSize = PixelSize(width: Int(image.width), height: Int(image.height))
        frameCount = Int(pointer.pointee.imageCount)
        try options.checkPixelCount(width: codedSize.width, height: codedSize.height, format: .avif)
        crop = try Self.cleanAperture(image, avif)
        orientation = Self.orientation(image)
        let cropped = crop.map { PixelSize(width: Int($0.width), height: Int($0.height)) } ?? codedSize
        canvasSize = orientation.displayedSize(of: cropped)
        decodeMemory = DecodeCost.avifSequence(coded: codedSize, turned: crop != nil || orientation != .up,
                                               bitDepth: Int(image.depth), chroma: image.yuvFormat,
                                               alpha: pointer.pointee.alphaPresent != 0)
        try options.checkMemory(decodeMemory)
        // The AV1 decoder is made at the first frame with this ceiling: a frame coded larger than the file declares
        // (which libavif would scale to the declared size) is refused before the decoder allocates for it.
        pointer.pointee.imageSizeLimit = UInt32(codedSize.width * codedSize.height)
    }

    /// The next frame, upright. Past the first: the memory limit (the decoder's and the `framesHeld` canvases) ends
    /// the loop with a warning, as damage after the first frame does.
    ///
    /// As a played GIF's or WebP's, a loop's frames are not held to `maxPixels` together (which would end a 1080p clip
    /// after 48 frames): frames are only read to be shown, at most 50 a second (`AnimationFrame.displayTime`), so the
    /// work is bounded by the frame size and the clock, and the number of frames by `maxFrames`.
    mutating func next(options: DecodeOptions, framesHeld: Int) throws(DecodeError) -> AnimationStep {
        try DecodeCancellation.check()
        guard framesRead < frameCount else { return .end(warning: nil) }
        if framesRead > 0 {
            let memory = decodeMemory + framesHeld * DecodeCost.rgba(canvasSize)
            guard memory <= options.maxMemory else {
                return .end(warning: options.framesLimitWarning(kept: framesRead, memory: memory))
            }
        }
        let pointer = decoder.pointer
        let result = QuietStandardError.silencing { avif.decoder_next_image(pointer) }
        guard result == AVIF_RESULT_OK else {
            return try endEarly(Self.failure(result, "avifDecoderNextImage", avif, pointer))
        }
        let image = pointer.pointee.image.pointee
        guard Int(image.width) == codedSize.width, Int(image.height) == codedSize.height else {
            return try endEarly("frame \(framesRead + 1) is \(image.width)x\(image.height), the file says \(codedSize)")
        }
        let timing = pointer.pointee.imageTiming
        let delay = Self.duration(ticks: timing.durationInTimescales, timescale: timing.timescale)
        var bitmap = try rgba(of: pointer.pointee.image)
        if let crop { bitmap = bitmap.cropped(to: crop) }
        bitmap = bitmap.applying(orientation)
        framesRead += 1
        return .frame(AnimationFrame(bitmap: bitmap, delay: delay))
    }

    /// For a player, which holds the frame it shows while the next is read.
    mutating func next(options: DecodeOptions) throws(DecodeError) -> AnimationStep {
        try next(options: options, framesHeld: 1)
    }

    mutating func rewind(options: DecodeOptions) throws(DecodeError) {
        let pointer = decoder.pointer
        try Self.check(QuietStandardError.silencing { avif.decoder_reset(pointer) }, "avifDecoderReset", avif,
                       pointer, options)
        framesRead = 0
    }

    /// A failure before the first frame throws; after one, the loop ends with the frames read and a warning.
    private func endEarly(_ reason: String) throws(DecodeError) -> AnimationStep {
        guard framesRead > 0 else { throw .corrupt(.avif, reason: reason) }
        return .end(warning: "the AVIF sequence is damaged after \(framesRead) frame(s) (\(reason))")
    }

    /// The decoded frame as 8-bit RGBA with straight alpha, converted by libavif straight into a bitmap.
    private func rgba(of image: UnsafeMutablePointer<avifImage>) throws(DecodeError) -> Bitmap {
        try makeBitmap(width: codedSize.width, height: codedSize.height) { pixels throws(DecodeError) in
            var rgb = avifRGBImage()
            avif.rgb_image_set_defaults(&rgb, image)
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.depth = 8
            rgb.alphaPremultiplied = 0
            rgb.pixels = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
            rgb.rowBytes = UInt32(codedSize.width * 4)
            let result = avif.image_yuv_to_rgb(image, &rgb)
            guard result == AVIF_RESULT_OK else {
                throw .corrupt(.avif, reason: "avifImageYUVToRGB: \(String(cString: avif.result_to_string(result)))")
            }
        }
    }

    /// A libavif result other than success as a typed error, with libavif's words.
    private static func check(_ result: avifResult, _ function: String, _ avif: cavif_library,
                              _ decoder: UnsafeMutablePointer<avifDecoder>,
                              _ options: DecodeOptions) throws(DecodeError) {
        guard result != AVIF_RESULT_OK else { return }
        let reason = failure(result, function, avif, decoder)
        switch result {
        case _ where reason.contains("imageCountLimit"):
            throw .unsupported(.avif, reason: "the sequence has more than the \(options.maxFrames) frames one decode "
                + "reads")
        case _ where reason.contains("dimensions are too large"), AVIF_RESULT_NO_CODEC_AVAILABLE,
             AVIF_RESULT_NOT_IMPLEMENTED:
            // libavif's size ceiling: the file is too large, not damaged.
            throw .unsupported(.avif, reason: reason)
        default:
            throw .corrupt(.avif, reason: reason)
        }
    }

    /// The function, libavif's name for the result and its diagnostic, which may quote the file's own bytes (box
    /// types): anything but printable ASCII in it becomes "?".
    private static func failure(_ result: avifResult, _ function: String, _ avif: cavif_library,
                                _ decoder: UnsafeMutablePointer<avifDecoder>) -> String {
        let words = String(cString: avif.result_to_string(result))
        let detail = String(cString: cavif_decoder_diagnostic(decoder)).unicodeScalars
            .map { (0x20..<0x7F).contains($0.value) ? Character($0) : "?" }
        return detail.isEmpty ? "\(function): \(words)" : "\(function): \(words) (\(String(detail)))"
    }

    /// The crop rectangle of the `clap` property, when libavif reports one; a `clap` it finds invalid is damage.
    private static func cleanAperture(_ image: avifImage, _ avif: cavif_library) throws(DecodeError) -> avifCropRect? {
        guard image.transformFlags & AVIF_TRANSFORM_CLAP.rawValue != 0 else { return nil }
        var rect = avifCropRect()
        var clap = image.clap
        guard avif.crop_rect_convert_clean_aperture_box(&rect, &clap, image.width, image.height, image.yuvFormat,
                                                        nil) != 0,
              rect.width > 0, rect.height > 0 else {
            throw .corrupt(.avif, reason: "its clean aperture (clap) does not fit its \(image.width)x\(image.height) "
                + "frames")
        }
        return rect
    }

    /// `irot` (quarter turns anticlockwise) then `imir` (0: top and bottom exchanged, 1: left and right), as the one
    /// EXIF orientation that does both.
    static func orientation(_ image: avifImage) -> ExifOrientation {
        let angle = image.transformFlags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.irot.angle & 3) : 0
        let mirror = image.transformFlags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.imir.mode & 1) : nil
        // Rows: the angle; columns: no mirror, top and bottom exchanged, left and right exchanged.
        let table: [[ExifOrientation]] = [
            [.up, .downMirrored, .upMirrored],
            [.left, .leftMirrored, .rightMirrored],
            [.down, .upMirrored, .downMirrored],
            [.right, .rightMirrored, .leftMirrored],
        ]
        return table[angle][mirror.map { $0 + 1 } ?? 0]
    }

    /// A frame's duration of `ticks` of the media's `timescale` (ticks a second), to the nanosecond, and no longer
    /// than an hour (a player shows such a frame as a still picture anyway); 0 when the file gives no timescale.
    static func duration(ticks: UInt64, timescale: UInt64) -> Duration {
        guard timescale > 0 else { return .zero }
        let whole = ticks / timescale, part = ticks % timescale
        guard whole < 3600 else { return .seconds(3600) }
        return .seconds(Int64(whole)) + .nanoseconds(Int64(Double(part) / Double(timescale) * 1e9))
    }
}

extension DecodeCost {
    /// An AVIF sequence: the AV1 decoder's frames (its 8 reference frames, the frame being decoded and one more for
    /// libavif's image and the decoder's padding), each of its planes at `chroma`'s subsampling and one or two bytes
    /// a sample, an alpha plane as one more sample a pixel; our RGBA bitmap, and its cropped or turned copy.
    static func avifSequence(coded: PixelSize, turned: Bool, bitDepth: Int, chroma: avifPixelFormat,
                             alpha: Bool) -> Int {
        // Samples a pixel, in quarters: luma, then the two chroma planes at their subsampling.
        let colour = switch chroma {
        case AVIF_PIXEL_FORMAT_YUV444: 12
        case AVIF_PIXEL_FORMAT_YUV422: 8
        case AVIF_PIXEL_FORMAT_YUV400: 4
        default: 6
        }
        let quarters = colour + (alpha ? 4 : 0)
        let planes = coded.width * coded.height * quarters / 4 * (bitDepth > 8 ? 2 : 1)
        return 10 * planes + rgba(coded) * (turned ? 2 : 1)
    }
}

extension Bitmap {
    /// The part of this bitmap inside `rect` (which lies inside it).
    func cropped(to rect: avifCropRect) -> Bitmap {
        let x = Int(rect.x), y = Int(rect.y), w = Int(rect.width), h = Int(rect.height)
        var pixels = [UInt8]()
        pixels.reserveCapacity(w * h * 4)
        for row in y..<y + h {
            pixels.append(contentsOf: self.pixels[(row * width + x) * 4..<(row * width + x + w) * 4])
        }
        return Bitmap(width: w, height: h, pixels: pixels)
    }
}
