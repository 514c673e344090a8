import Codecs
import Pixels

/// Fuzz targets for the codecs, through their public API only (`ImageDecoder.decode`, `header(of:)`, `sniff`).
enum ImageFuzzing {
    /// Small enough that a hostile header cannot make one input take seconds or gigabytes, large enough for every
    /// fixture: the limits themselves are what `DecodeOptions` promises to enforce.
    static let maxPixels = 4_000_000
    /// A JPEG's scans may visit this many blocks (`DecodeOptions.maxBlockScans`, a sixteenth of the default): with
    /// the pixel limit it holds every input to a fraction of a second, so libFuzzer's `-timeout` flags any shape of
    /// scans or chunks whose cost those limits do not bound.
    static let maxBlockScans = 4_000_000
    /// A thumbnail's pixel size, so that JPEG's and WebP's scaled decodes run.
    static let thumbnail = PixelSize(width: 16, height: 8)

    /// Decodes inputs the format claims twice: at full size with every animation frame, and scaled for a thumbnail.
    static func target(for format: ImageFormat) -> FuzzTarget {
        FuzzTarget(name: format.rawValue,
                   summary: "\(format.displayName) through ImageDecoder.decode, full size and scaled") {
            bytes in
            // Inputs of another format are another target's job; libFuzzer learns to keep the magic number.
            guard ImageDecoder.sniff(bytes) == format else { return }
            let header = try? ImageDecoder.header(of: bytes)
            decode(bytes, options: DecodeOptions(maxPixels: maxPixels, maxBlockScans: maxBlockScans), header: header)
            let scaled = DecodeOptions(targetSize: thumbnail, maxPixels: maxPixels, keepsAnimationFrames: false,
                                       maxBlockScans: maxBlockScans)
            decode(bytes, options: scaled, header: header)
        }
    }

    /// Sniffing and header reading of any bytes, every format at once. A header may declare an empty or huge size
    /// (limits are `decode`'s job), so only the format is checked.
    static let header = FuzzTarget(name: "header", summary: "ImageDecoder.sniff and header(of:) on any bytes") {
        bytes in
        let format = ImageDecoder.sniff(bytes)
        guard let header = try? ImageDecoder.header(of: bytes) else { return }
        promise(header.format == format, "header says \(header.format), sniff says \(String(describing: format))")
    }

    /// Decodes and checks what `DecodedImage` promises: a bitmap that fits the original, no larger than the limit, and
    /// the size `header(of:)` announced.
    private static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions, header: ImageHeader?) {
        guard let image = try? ImageDecoder.decode(bytes, options: options) else { return }
        let bitmap = image.bitmap
        let decoded = "\(bitmap.width)x\(bitmap.height)"
        let original = "\(image.originalWidth)x\(image.originalHeight)"
        promise(bitmap.pixels.count == bitmap.width * bitmap.height * 4, "bitmap bytes do not match its size")
        promise(bitmap.width > 0 && bitmap.height > 0, "decoded an empty bitmap \(decoded)")
        promise(image.originalWidth * image.originalHeight <= options.maxPixels,
                "decoded \(original) over the \(options.maxPixels)-pixel limit")
        promise(bitmap.width <= image.originalWidth && bitmap.height <= image.originalHeight,
                "bitmap \(decoded) larger than the original \(original)")
        if options.targetSize == nil {
            promise(bitmap.width == image.originalWidth && bitmap.height == image.originalHeight,
                    "full-size decode gave \(decoded) for \(original)")
        }
        for frame in image.frames {
            promise(frame.bitmap.width == bitmap.width && frame.bitmap.height == bitmap.height,
                    "frame \(frame.bitmap.width)x\(frame.bitmap.height) is not the canvas \(decoded)")
        }
        if let header {
            promise(header.format == image.format, "header says \(header.format), decode says \(image.format)")
            promise(header.width == image.originalWidth && header.height == image.originalHeight,
                    "header says \(header.width)x\(header.height), decode says \(original)")
        }
    }
}
