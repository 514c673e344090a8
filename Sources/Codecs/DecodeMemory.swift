import FoundationEssentials

/// The bytes each decoder allocates for an image, worked out from its header: the one formula a decoder checks
/// against `DecodeOptions.maxMemory` before it allocates, and `ImageDecoder.memoryCost` reports for reservations.
///
/// What counts is what grows with the picture: bitmaps, libraries' whole-image buffers, scratch the size of a frame.
/// Buffers of one row or a fixed size are left out.
enum DecodeCost {
    /// An RGBA bitmap.
    static func rgba(_ size: PixelSize) -> Int { 4 * size.width * size.height }

    /// JPEG: the bitmap at the DCT-scaled size, a second one when EXIF turns it, and a progressive file's
    /// coefficients (kept at full size whatever the scaling).
    static func jpeg(scaled: PixelSize, orientation: ExifOrientation, coefficientBytes: Int) -> Int {
        rgba(scaled) * (orientation == .up ? 1 : 2) + coefficientBytes
    }

    /// PNG: the bitmap (every path, palette indices, packed rows, 16-bit rows, works inside it or in single rows)
    /// and the copy of the file without its unused chunks, when one is made (`PNGChunks.essentialCopyBytes`).
    static func png(_ size: PixelSize, copied: Int) -> Int { rgba(size) + copied }

    /// GIF: the canvas, and one palette index a pixel of the largest frame so far (frames may be larger than the
    /// canvas; the first is taken to be the canvas's size until its descriptor is read).
    static func gif(canvas: PixelSize, largestFrame: Int) -> Int { rgba(canvas) + largestFrame }

    /// A still WebP: the bitmap at the scaled size, and for a lossless file libwebp's full-size ARGB image (lossy
    /// files are decoded and scaled a few rows at a time).
    static func webp(full: PixelSize, scaled: PixelSize, lossless: Bool) -> Int {
        rgba(scaled) + (lossless ? rgba(full) : 0)
    }

    /// An animated WebP's first frame: libwebp's two canvases (the frame being drawn and the previous one) and our
    /// copy.
    static func webpAnimation(canvas: PixelSize) -> Int { 3 * rgba(canvas) }
}

extension ImageDecoder {
    /// The most bytes decoding `bytes` with `options` will allocate (see `DecodeCost`), read from the header only:
    /// what a caller reserves from a `DecodeMemoryBudget` before it decodes. With `keepsAnimationFrames` on, a GIF
    /// or an animated WebP may keep frames up to `options.maxMemory`, so that is its cost.
    public static func memoryCost(of bytes: some ContiguousBytes,
                                  options: DecodeOptions = .init()) throws(DecodeError) -> Int {
        try header(of: bytes).memoryCost(options: options)
    }

    /// `memoryCost(of:options:)` from the header the image already holds; 0 when it has none (its decode fails at
    /// once).
    public static func memoryCost(of image: EncodedImage, options: DecodeOptions = .init()) -> Int {
        image.header?.memoryCost(options: options) ?? 0
    }
}

extension ImageHeader {
    /// The bytes decoding with `options` will allocate (`DecodeCost`), from this header and its details alone. When
    /// the embedded thumbnail is decoded instead, the full image's cost still counts: a thumbnail that turns out
    /// damaged is replaced by the full image in the same decode.
    func memoryCost(options: DecodeOptions) -> Int {
        let full = fullImageMemoryCost(options: options)
        guard let thumbnail = embeddedThumbnail(for: options) else { return full }
        return max(full, thumbnail.memoryCost(options: options))
    }

    private func fullImageMemoryCost(options: DecodeOptions) -> Int {
        switch (format, details) {
        case (.jpeg, .jpeg(let markers, _)):
            return JPEGDecoder.memoryCost(displayed: size, markers: markers, options: options)
        case (.png, .png(let copied)):
            return DecodeCost.png(size, copied: copied)
        case (.gif, _):
            return options.keepsAnimationFrames
                ? options.maxMemory : DecodeCost.gif(canvas: size, largestFrame: size.width * size.height)
        case (.webp, .webp(let animated, let lossless)):
            return WebPDecoder.memoryCost(size: size, animated: animated, lossless: lossless, options: options)
        case (.heif, .heif(let bitDepth)), (.avif, .heif(let bitDepth)):
            return DecodeCost.heif(size, bitDepth: bitDepth)
        case (.jxl, _):
            return DecodeCost.jxl(size)
        default:
            // A header made by hand, without the details read from a file: the bitmap alone.
            return DecodeCost.rgba(size)
        }
    }

    /// About how much work decoding is, in pixels visited (`ImageDecoder.decodeWork`).
    var decodeWork: Int {
        if case .jpeg(_, let scans) = details { return 64 * scans.blockScans }
        return width * height
    }
}
