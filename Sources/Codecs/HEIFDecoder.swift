import CHeif
import Pixels

/// HEIC, HEIF and AVIF through libheif (loaded on first use, see `CHeif`): the primary image, turned and mirrored as
/// its `irot` and `imir` properties say (libheif applies them unless told not to), converted from YCbCr with the
/// matrix its `nclx` colour box names. Output is RGBA with straight alpha, 8 bits, full size.
///
/// Colour: libheif 1.15 converts YCbCr to RGB by the file's matrix coefficients and range; it does not convert an ICC
/// profile's or nclx primaries' gamut (Display P3 on iPhones) to sRGB, so such photos show slightly less saturated.
enum HEIFDecoder {
    /// The most tiles a grid image may declare: a 100-megapixel photo in libheif's and Apple's 512x512 tiles has 400.
    static let maxGridTiles = 1024

    static func decode(_ bytes: UnsafeRawBufferPointer, format: ImageFormat,
                       options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        try withPrimaryImage(bytes, format: format) { heif, handle throws(DecodeError) in
            let size = displayedSize(heif, handle)
            try options.checkPixelCount(width: size.width, height: size.height, format: format)
            let bitDepth = Int(heif.image_handle_get_luma_bits_per_pixel(handle))
            try options.checkMemory(DecodeCost.heif(size, bitDepth: bitDepth))
            let bitmap = try decodePixels(heif, handle, size: size, format: format)
            return DecodedImage(bitmap: bitmap, format: format, originalWidth: size.width, originalHeight: size.height)
        }
    }

    /// The displayed size (after `irot`) and the luma bit depth the primary image's properties declare, read
    /// without decoding: what `DecodeCost.heif` counts; and its largest thumbnail item with fewer pixels than it.
    static func primaryImage(
        _ bytes: UnsafeRawBufferPointer, format: ImageFormat
    ) throws(DecodeError) -> (size: PixelSize, bitDepth: Int, thumbnail: EmbeddedThumbnail?) {
        try withPrimaryImage(bytes, format: format) { heif, handle in
            let size = displayedSize(heif, handle)
            return (size, Int(heif.image_handle_get_luma_bits_per_pixel(handle)),
                    largestThumbnail(heif, handle, under: size))
        }
    }

    /// Decodes the primary image's thumbnail item `itemID`, which the header found to be `size`.
    static func decodeThumbnail(_ bytes: UnsafeRawBufferPointer, format: ImageFormat, itemID: UInt32,
                                size: PixelSize, options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        try withPrimaryImage(bytes, format: format) { heif, primary throws(DecodeError) in
            var handle: OpaquePointer?
            try check(heif.image_handle_get_thumbnail(primary, itemID, &handle), "heif_image_handle_get_thumbnail",
                      format)
            guard let handle else { throw .corrupt(format, reason: "the thumbnail item \(itemID) is missing") }
            defer { heif.image_handle_release(handle) }
            try options.checkPixelCount(width: size.width, height: size.height, format: format)
            let bitDepth = Int(heif.image_handle_get_luma_bits_per_pixel(handle))
            try options.checkMemory(DecodeCost.heif(size, bitDepth: bitDepth))
            let bitmap = try decodePixels(heif, handle, size: size, format: format)
            return DecodedImage(bitmap: bitmap, format: format, originalWidth: size.width, originalHeight: size.height)
        }
    }

    /// The largest of the primary image's thumbnail items (the first 16 it lists) with fewer pixels than `size`.
    private static func largestThumbnail(_ heif: cheif_library, _ primary: OpaquePointer,
                                         under size: PixelSize) -> EmbeddedThumbnail? {
        var ids = [heif_item_id](repeating: 0, count: 16)
        let count = min(Int(heif.image_handle_get_number_of_thumbnails(primary)), ids.count)
        guard count > 0 else { return nil }
        let listed = Int(heif.image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(count)))
        var best: EmbeddedThumbnail?
        for id in ids.prefix(min(listed, count)) {
            var handle: OpaquePointer?
            guard heif.image_handle_get_thumbnail(primary, id, &handle).code == heif_error_Ok, let handle else {
                continue
            }
            defer { heif.image_handle_release(handle) }
            let thumbnail = displayedSize(heif, handle)
            let pixels = thumbnail.width * thumbnail.height
            guard thumbnail.width > 0, thumbnail.height > 0, pixels < size.width * size.height,
                  pixels > (best.map { $0.size.width * $0.size.height } ?? 0) else { continue }
            best = EmbeddedThumbnail(size: thumbnail, source: .heif(
                itemID: id, bitDepth: Int(heif.image_handle_get_luma_bits_per_pixel(handle))))
        }
        return best
    }

    /// Loads libheif, parses the file's boxes (no pixel is decoded) and hands `body` its primary image.
    private static func withPrimaryImage<T>(
        _ bytes: UnsafeRawBufferPointer, format: ImageFormat,
        _ body: (cheif_library, OpaquePointer) throws(DecodeError) -> T
    ) throws(DecodeError) -> T {
        try HEIFGrid.checkTileCount(bytes, limit: maxGridTiles, format: format)
        var message: UnsafePointer<CChar>?
        guard let heif = cheif_load(&message)?.pointee else {
            throw .unsupported(format, reason: message.map { String(cString: $0) } ?? "libheif did not load")
        }
        guard let context = heif.context_alloc() else {
            throw .unsupported(format, reason: "heif_context_alloc: out of memory")
        }
        defer { heif.context_free(context) }
        // Tiles of a grid are decoded on libheif's threads; one keeps a decode's memory to what `DecodeCost` counts,
        // and thumbnails are decoded several at a time anyway.
        heif.context_set_max_decoding_threads(context, 1)
        try check(heif.context_read_from_memory_without_copy(context, bytes.baseAddress!, bytes.count, nil),
                  "heif_context_read_from_memory", format)
        var handle: OpaquePointer?
        try check(heif.context_get_primary_image_handle(context, &handle), "heif_context_get_primary_image_handle",
                  format)
        guard let handle else { throw .corrupt(format, reason: "the file has no primary image") }
        defer { heif.image_handle_release(handle) }
        return try body(heif, handle)
    }

    private static func displayedSize(_ heif: cheif_library, _ handle: OpaquePointer) -> PixelSize {
        PixelSize(width: Int(heif.image_handle_get_width(handle)), height: Int(heif.image_handle_get_height(handle)))
    }

    /// Decodes the image to interleaved 8-bit RGBA and copies it, row by row, into a bitmap of its own.
    private static func decodePixels(_ heif: cheif_library, _ handle: OpaquePointer, size: PixelSize,
                                     format: ImageFormat) throws(DecodeError) -> Bitmap {
        let decoding = heif.decoding_options_alloc()
        defer { heif.decoding_options_free(decoding) }
        decoding?.pointee.convert_hdr_to_8bit = 1
        var image: OpaquePointer?
        try check(heif.decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, decoding),
                  "heif_decode_image", format)
        guard let image else { throw .corrupt(format, reason: "heif_decode_image returned no image") }
        defer { heif.image_release(image) }
        let width = Int(heif.image_get_width(image, heif_channel_interleaved))
        let height = Int(heif.image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0,
              let plane = heif.image_get_plane_readonly(image, heif_channel_interleaved, &stride),
              Int(stride) >= width * 4
        else { throw .corrupt(format, reason: "heif_decode_image returned no RGBA plane") }
        // libheif 1.15 does not check the coded picture against the declared size: a damaged file can decode to
        // another size (found by the fuzzer), which the limits and the memory count were not worked out for.
        guard width == size.width, height == size.height else {
            throw .corrupt(format, reason: "its coded picture is \(width)x\(height), its header says \(size)")
        }
        return try makeBitmap(width: width, height: height) { pixels throws(DecodeError) in
            for row in 0..<height {
                let source = UnsafeRawBufferPointer(start: plane + row * Int(stride), count: width * 4)
                UnsafeMutableRawBufferPointer(rebasing: pixels[row * width * 4..<(row + 1) * width * 4])
                    .copyMemory(from: source)
            }
        }
    }

    /// A libheif error as a typed one, with the function that returned it and libheif's words.
    private static func check(_ error: heif_error, _ function: String,
                              _ format: ImageFormat) throws(DecodeError) {
        guard error.code != heif_error_Ok else { return }
        // libheif ends some messages with a line break.
        let words = error.message.map { String(String(cString: $0).reversed().drop { $0.isWhitespace }.reversed()) }
            ?? "error \(error.code.rawValue)"
        let reason = "\(function): \(words)"
        switch error.code {
        case heif_error_Unsupported_filetype, heif_error_Unsupported_feature:
            throw .unsupported(format, reason: reason)
        case _ where error.subcode == heif_suberror_Security_limit_exceeded:
            // libheif's own ceiling (32768 pixels a side, checked as it reads the boxes): the file is too large, not
            // damaged.
            throw .unsupported(format, reason: reason)
        default:
            throw .corrupt(format, reason: reason)
        }
    }
}

extension DecodeCost {
    /// HEIF and AVIF, decoded at full size: our bitmap, libheif's RGBA image and its turned copy when `irot` or
    /// `imir` apply, and the decoded planes (YCbCr 4:4:4 at worst, and alpha) at one or two bytes a sample.
    static func heif(_ size: PixelSize, bitDepth: Int) -> Int {
        3 * rgba(size) + size.width * size.height * (bitDepth > 8 ? 8 : 4)
    }

    /// JPEG XL, decoded at full size straight into our bitmap: the bitmap, and libjxl's frame of 32-bit samples
    /// (three colour channels and alpha).
    static func jxl(_ size: PixelSize) -> Int { rgba(size) + 16 * size.width * size.height }
}
