/// A width and height in pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// True when both dimensions are at least those of `other`.
    public func covers(_ other: PixelSize) -> Bool {
        width >= other.width && height >= other.height
    }

    /// The smallest size with this aspect ratio that still covers `target` in both dimensions, never larger than
    /// this size (an image is never scaled up).
    func scaledToCover(_ target: PixelSize) -> PixelSize {
        guard target.width > 0, target.height > 0, target.width < width, target.height < height else { return self }
        // The dimension with the larger target-to-image ratio decides the scale; the other is rounded up.
        if target.width * height >= target.height * width {
            return PixelSize(width: target.width, height: (height * target.width + width - 1) / width)
        } else {
            return PixelSize(width: (width * target.height + height - 1) / height, height: target.height)
        }
    }

    /// The same size turned a quarter turn.
    var transposed: PixelSize { PixelSize(width: height, height: width) }

    public var description: String { "\(width)x\(height)" }
}

/// How to decode: the size the caller needs and the limits that protect it from hostile or huge inputs.
public struct DecodeOptions: Sendable, Equatable {
    /// The smallest size the caller will show the image at, in displayed orientation, or nil for full size.
    ///
    /// JPEG and WebP decoders then decode at the smallest scale that still covers this size in both dimensions
    /// (keeping the aspect ratio), so a renderer can area-average down from there without upscaling. Other formats
    /// decode at full size. The result is never larger than the image itself.
    public var targetSize: PixelSize?
    /// Images with more pixels than this are refused from their header, before any pixel memory is allocated.
    public var maxPixels: Int
    /// Inputs longer than this many bytes are refused before they are read or parsed.
    public var maxBytes: Int
    /// Keep every composited frame of an animated GIF or WebP in `DecodedImage.frames`. Turn off for thumbnails:
    /// only the first frame is decoded then.
    public var keepsAnimationFrames: Bool
    /// The most bytes one decode may allocate: its bitmap and the decoder's working memory (see
    /// `ImageDecoder.memoryCost`), every kept animation frame included. A decode the header shows to need more is
    /// refused before any pixel memory exists; animation frames beyond it are dropped with a warning.
    public var maxMemory: Int
    /// The most block visits a JPEG's scans may cost (`JPEGScanWork`: each scan's 8x8 blocks, summed over the
    /// scans). A file over it is refused from its headers, before any decoding: it bounds the CPU time of a decode,
    /// as `maxMemory` bounds its memory.
    public var maxBlockScans: Int
    /// The most frames of an animation a decode reads: later frames are neither decoded nor walked (a frame costs
    /// its record in the library even when skipped). Kept frames beyond it are dropped with a warning.
    public var maxFrames: Int

    /// The default `maxFrames`: a long GIF has a few thousand frames; 10,000 are read in a tenth of a second.
    public static let defaultMaxFrames = 10_000

    /// The default `maxBlockScans`, about a second of libjpeg's time here: a progressive photo at the default pixel
    /// limit (100 megapixels, 1.6 million blocks a full component) with twenty scans fits twice over; 499 scans over
    /// an 8192x8192 image (one million blocks, 11 s) do not.
    public static let defaultMaxBlockScans = 64_000_000

    /// The default `maxMemory`: a 100-megapixel bitmap (the default pixel limit) and its working memory fit; a 9000 x
    /// 9000 PNG (324 MB) fits once, not twice.
    public static let defaultMaxMemory = 512 << 20

    public init(targetSize: PixelSize? = nil, maxPixels: Int = 100_000_000, maxBytes: Int = 64 << 20,
                keepsAnimationFrames: Bool = true, maxMemory: Int = defaultMaxMemory,
                maxBlockScans: Int = defaultMaxBlockScans, maxFrames: Int = defaultMaxFrames) {
        self.targetSize = targetSize
        self.maxPixels = maxPixels
        self.maxBytes = maxBytes
        self.keepsAnimationFrames = keepsAnimationFrames
        self.maxMemory = maxMemory
        self.maxBlockScans = maxBlockScans
        self.maxFrames = maxFrames
    }

    /// Why an animation keeps only its first `kept` frames: with the next one its frames would need `memory` bytes,
    /// more than `maxMemory`, or else decode more than `maxPixels` pixels.
    func framesLimitWarning(kept: Int, memory: Int) -> String {
        "only the first \(kept) frames are kept: with the next one the frames would "
            + (memory > maxMemory
                ? "need more than the \(maxMemory) bytes one decode may use" : "exceed the limit of \(maxPixels) pixels")
    }

    /// Why an animation keeps only its first `kept` frames: it has more than `maxFrames`.
    func frameCountWarning(kept: Int) -> String {
        "only the first \(kept) frames are kept: the animation has more than the \(maxFrames) frames one decode reads"
    }

    /// Refuses a decode that needs more than `maxMemory` bytes, before it allocates them.
    func checkMemory(_ bytes: Int) throws(DecodeError) {
        guard bytes <= maxMemory else { throw .needsTooMuchMemory(bytes: bytes, limit: maxMemory) }
    }

    /// Refuses a JPEG whose scans would cost more than `maxBlockScans` block visits, before it decodes.
    func checkScanWork(_ work: JPEGScanWork) throws(DecodeError) {
        guard work.blockScans <= maxBlockScans else {
            throw .needsTooMuchWork(scans: work.scans, blockScans: work.blockScans, limit: maxBlockScans)
        }
    }

    /// Refuses an image whose header declares more pixels than `maxPixels` (or no pixels at all).
    func checkPixelCount(width: Int, height: Int, format: ImageFormat) throws(DecodeError) {
        guard width > 0, height > 0 else {
            throw .corrupt(format, reason: "the header declares an empty image (\(width)x\(height) pixels)")
        }
        // Checked division: width * height can overflow for hostile headers on some formats.
        guard width <= maxPixels / height else {
            throw .imageTooLarge(width: width, height: height, limit: maxPixels)
        }
    }
}
