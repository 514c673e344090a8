import CPNG
import Pixels

/// PNG through libpng's simplified `png_image_*` API: every bit depth, colour type and interlacing becomes 8-bit
/// RGBA with straight alpha, and errors come back in `png_image.message` (no setjmp, nothing printed). 16-bit files
/// go through the shim's `cpng_read_rgba8_from16` instead (see `decodeSixteenBit`).
///
/// PNGs always decode at full size. libpng's warnings (typically about colour profiles) are dropped: they never
/// affect the pixels enough to tell a user.
///
/// libpng sees only the chunks that make the pixels (`PNGChunks`): text, ICC profiles and private chunks are dropped
/// before it reads the file, so they cost neither memory nor inflating time.
enum PNGDecoder {
    /// Decodes `bytes`; `copiedBytes` is `PNGChunks.essentialCopyBytes` as `ImageDecoder.header` found it, worked
    /// out here when nil.
    static func decode(_ bytes: UnsafeRawBufferPointer, copiedBytes: Int? = nil,
                       options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        let copied = copiedBytes ?? PNGChunks.essentialCopyBytes(bytes)
        guard copied > 0 else { return try decode(essential: bytes, copied: 0, options: options) }
        // The copy is made before libpng reads a byte, so it is checked against the limit on its own first.
        try options.checkMemory(copied)
        let essential = PNGChunks.essential(bytes) ?? Array(bytes)
        return try essential.withUnsafeBytes { buffer in
            Result { () throws(DecodeError) -> DecodedImage in
                try decode(essential: buffer, copied: copied, options: options)
            }
        }.get()
    }

    /// Decodes bytes `PNGChunks` has already stripped; `copied` is what that copy took (`DecodeCost.png`).
    private static func decode(essential bytes: UnsafeRawBufferPointer, copied: Int,
                               options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        // Allocated, not a local: libpng's row callback finds it from the png_image's address (`cpng_decoding`).
        let decoding = UnsafeMutablePointer<cpng_decoding>.allocate(capacity: 1)
        decoding.initialize(to: cpng_decoding())
        defer { decoding.deallocate() }
        decoding.pointee.should_stop = DecodeCancellation.cCallback
        // The image is the struct's first member.
        let image = UnsafeMutableRawPointer(decoding).assumingMemoryBound(to: png_image.self)
        image.pointee.version = UInt32(PNG_IMAGE_VERSION)
        // Reads the signature and IHDR only: the size is known before any pixel memory exists.
        guard png_image_begin_read_from_memory(image, bytes.baseAddress, bytes.count) != 0 else {
            throw .corrupt(.png, reason: "png_image_begin_read_from_memory: \(message(of: image))")
        }
        let width = Int(image.pointee.width), height = Int(image.pointee.height)
        do {
            try options.checkPixelCount(width: width, height: height, format: .png)
            try options.checkMemory(DecodeCost.png(PixelSize(width: width, height: height), copied: copied))
            try PNGChunks.checkImageData(bytes)
        } catch {
            png_image_free(image)
            throw error
        }
        cpng_watch(decoding)
        if image.pointee.format & UInt32(PNG_FORMAT_FLAG_COLORMAP) != 0, image.pointee.colormap_entries <= 256 {
            return try decodePalette(image, width: width, height: height)
        }
        let natural = image.pointee.format
        if natural & UInt32(PNG_FORMAT_FLAG_LINEAR) != 0 {
            png_image_free(image)
            return try decodeSixteenBit(bytes, width: width, height: height)
        }
        if natural & UInt32(PNG_FORMAT_FLAG_ALPHA) == 0 {
            return try decodeOpaque(image, gray: natural & UInt32(PNG_FORMAT_FLAG_COLOR) == 0, width: width,
                                    height: height)
        }
        image.pointee.format = cpng_format_rgba()
        let bitmap = try makeBitmap(width: width, height: height) { pixels throws(DecodeError) in
            // Row stride 0 means packed rows. finish_read frees libpng's state on success and on failure.
            guard png_image_finish_read(image, nil, pixels.baseAddress, 0, nil) != 0 else {
                throw failure("png_image_finish_read", libpng: message(of: image))
            }
        }
        return DecodedImage(bitmap: bitmap, format: .png, originalWidth: width, originalHeight: height)
    }

    /// A 16-bit PNG (any colour type, interlaced or not) through libpng's full API in the shim: the simplified API
    /// puts wrong pixels on every other row of interlaced 16-bit files in this libpng (see the shim), and one path
    /// for both keeps an interlaced file and its non-interlaced twin identical. Samples are sRGB, as PNG writers
    /// mean them (libpng would otherwise take 16-bit samples without a gAMA chunk for linear light): 0x8080 is 0x80.
    private static func decodeSixteenBit(_ bytes: UnsafeRawBufferPointer, width: Int,
                                         height: Int) throws(DecodeError) -> DecodedImage {
        let bitmap = try makeBitmap(width: width, height: height) { pixels throws(DecodeError) in
            var text = [CChar](repeating: 0, count: 128)
            let ok = text.withUnsafeMutableBufferPointer { text in
                cpng_read_rgba8_from16(bytes.baseAddress, bytes.count,
                                       pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(width),
                                       UInt32(height), text.baseAddress, text.count, DecodeCancellation.cCallback)
            }
            guard ok != 0 else {
                let message = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw failure("libpng", libpng: message.isEmpty ? "an error without a message" : message)
            }
        }
        return DecodedImage(bitmap: bitmap, format: .png, originalWidth: width, originalHeight: height)
    }

    /// A palette PNG (placeholders, icons, screenshots): libpng writes one palette index a pixel and the palette as
    /// RGBA, and the indices become pixels here, a 4-byte copy each, instead of libpng expanding every row through
    /// its transforms (unpack, expand, filler), which cost several times as much.
    ///
    /// The indices go into the last quarter of the bitmap's own storage and are expanded front to back in place:
    /// pixel `i` fills bytes up to `4i + 3`, never past index `i` at `3n + i`, which was read first.
    private static func decodePalette(_ image: UnsafeMutablePointer<png_image>, width: Int,
                                      height: Int) throws(DecodeError) -> DecodedImage {
        image.pointee.format = cpng_format_rgba_colormap()
        let count = width * height
        var failed = false
        let bitmap = try makeBitmap(width: width, height: height) { pixels throws(DecodeError) in
            let storage = pixels.baseAddress!, indices = storage + 3 * count
            // All 256 entries a byte can index, zeroed: at least PNG_IMAGE_COLORMAP_SIZE (a palette has at most 256
            // colours), and no index can reach memory libpng did not write.
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 256) { colormap in
                colormap.initialize(repeating: 0)
                // Row stride 0 means packed rows. finish_read frees libpng's state on success and on failure.
                guard png_image_finish_read(image, nil, indices, 0, colormap.baseAddress) != 0 else {
                    failed = true
                    return
                }
                for i in 0..<count {
                    let index = Int(indices.load(fromByteOffset: i, as: UInt8.self))
                    storage.storeBytes(of: colormap[index], toByteOffset: 4 * i, as: UInt32.self)
                }
            }
            if failed { throw failure("png_image_finish_read", libpng: message(of: image)) }
        }
        return DecodedImage(bitmap: bitmap, format: .png, originalWidth: width, originalHeight: height)
    }

    /// An 8-bit PNG without alpha (most photos and screenshots): libpng writes its rows as they are, grey or RGB,
    /// and they become RGBA here, instead of through libpng's filler transform, which cost several times as much.
    ///
    /// As with palettes, the packed rows go into the end of the bitmap's own storage and are expanded front to back
    /// in place: pixel `i` writes bytes up to `4i + 3`, and pixel `j > i` starts at `n + 3j` (RGB) or `3n + j`
    /// (grey), past it.
    private static func decodeOpaque(_ image: UnsafeMutablePointer<png_image>, gray: Bool, width: Int,
                                     height: Int) throws(DecodeError) -> DecodedImage {
        image.pointee.format = gray ? UInt32(PNG_FORMAT_GRAY) : cpng_format_rgb()
        let count = width * height
        let bitmap = try makeBitmap(width: width, height: height) { pixels throws(DecodeError) in
            let storage = pixels.baseAddress!, packed = storage + (gray ? 3 : 1) * count
            // Row stride 0 means packed rows. finish_read frees libpng's state on success and on failure.
            guard png_image_finish_read(image, nil, packed, 0, nil) != 0 else {
                throw failure("png_image_finish_read", libpng: message(of: image))
            }
            if gray {
                expandGrey(packed, into: storage, count: count)
            } else {
                expandRGB(packed, into: storage, count: count)
            }
        }
        return DecodedImage(bitmap: bitmap, format: .png, originalWidth: width, originalHeight: height)
    }

    /// Grey bytes at `packed` (inside `storage`, at `storage + 3 * count`) to opaque RGBA at `storage`, front to
    /// back, four pixels a step (one byte shuffle) and the rest one at a time.
    private static func expandGrey(_ packed: UnsafeMutableRawPointer, into storage: UnsafeMutableRawPointer,
                                   count: Int) {
        var i = 0
        while i + 4 <= count {
            let v = packed.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self)
            let rgba = SIMD16<UInt8>(v[0], v[0], v[0], 255, v[1], v[1], v[1], 255,
                                     v[2], v[2], v[2], 255, v[3], v[3], v[3], 255)
            storage.storeBytes(of: rgba, toByteOffset: 4 * i, as: SIMD16<UInt8>.self)
            i += 4
        }
        while i < count {
            let v = packed.load(fromByteOffset: i, as: UInt8.self)
            storage.storeBytes(of: SIMD4<UInt8>(v, v, v, 255), toByteOffset: 4 * i, as: SIMD4<UInt8>.self)
            i += 1
        }
    }

    /// Packed RGB at `packed` (inside `storage`, at `storage + count`) to opaque RGBA at `storage`, front to back.
    ///
    /// Four pixels a step: sixteen bytes are read and the twelve that hold them are spread into sixteen with alpha
    /// 255 (the compiler makes this one byte shuffle). A step reads up to byte `12k + 15` of the packed pixels, so it
    /// runs only while that is inside them; the rest go one at a time.
    private static func expandRGB(_ packed: UnsafeMutableRawPointer, into storage: UnsafeMutableRawPointer,
                                  count: Int) {
        var i = 0
        while 3 * i + 16 <= 3 * count {
            let v = packed.loadUnaligned(fromByteOffset: 3 * i, as: SIMD16<UInt8>.self)
            let rgba = SIMD16<UInt8>(v[0], v[1], v[2], 255, v[3], v[4], v[5], 255,
                                     v[6], v[7], v[8], 255, v[9], v[10], v[11], 255)
            storage.storeBytes(of: rgba, toByteOffset: 4 * i, as: SIMD16<UInt8>.self)
            i += 4
        }
        while i < count {
            let p = 3 * i
            let rgba = SIMD4<UInt8>(packed.load(fromByteOffset: p, as: UInt8.self),
                                    packed.load(fromByteOffset: p + 1, as: UInt8.self),
                                    packed.load(fromByteOffset: p + 2, as: UInt8.self), 255)
            storage.storeBytes(of: rgba, toByteOffset: 4 * i, as: SIMD4<UInt8>.self)
            i += 1
        }
    }

    /// The size IHDR declares (the specification puts it first, right after the signature), read by hand: creating
    /// libpng's read state just to learn it would cost more than the rest of planning a decode.
    static func size(_ bytes: UnsafeRawBufferPointer) throws(DecodeError) -> PixelSize {
        guard bytes.count >= 24, bytes[12] == 0x49, bytes[13] == 0x48, bytes[14] == 0x44, bytes[15] == 0x52 else {
            throw .corrupt(.png, reason: "the data is cut short or has no IHDR chunk after its signature")
        }
        func bigEndian32(at i: Int) -> Int {
            Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        }
        return PixelSize(width: bigEndian32(at: 16), height: bigEndian32(at: 20))
    }

    /// What a failed read means: the decode was cancelled between rows (`cpng_row_done`), or libpng found damage.
    private static func failure(_ function: String, libpng message: String) -> DecodeError {
        message == "cancelled" ? .cancelled : .corrupt(.png, reason: "\(function): \(message)")
    }

    /// libpng's error text, kept in a fixed 64-byte C array inside the image struct.
    private static func message(of image: UnsafeMutablePointer<png_image>) -> String {
        let text = withUnsafeBytes(of: &image.pointee.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "libpng reported an error without a message" : text
    }
}
