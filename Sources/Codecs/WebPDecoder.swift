import CWebP
import Pixels

/// WebP through libwebp: still images with `WebPDecoderConfig` (scaled while decoding, straight into the bitmap),
/// animations with libwebpdemux's `WebPAnimDecoder` (full canvases, full size). Output is RGBA with straight alpha.
enum WebPDecoder {
    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        let data = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        // Reads the headers only (for an animation, the canvas size): checked before anything is allocated.
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(data, bytes.count, &features)
        guard status == VP8_STATUS_OK else { throw failure("WebPGetFeatures", status) }
        let size = PixelSize(width: Int(features.width), height: Int(features.height))
        try options.checkPixelCount(width: size.width, height: size.height, format: .webp)
        if features.has_animation != 0 {
            return try decodeAnimation(bytes, options: options)
        }

        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw .unsupported(.webp, reason: "WebPInitDecoderConfig: libwebp does not match its headers")
        }
        let scaled = options.targetSize.map { size.scaledToCover($0) } ?? size
        try options.checkMemory(DecodeCost.webp(full: size, scaled: scaled, lossless: features.format == 2))
        if scaled != size {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(scaled.width)
            config.options.scaled_height = Int32(scaled.height)
        }
        config.output.colorspace = MODE_RGBA
        config.output.is_external_memory = 1
        let bitmap = try makeBitmap(width: scaled.width, height: scaled.height) { pixels throws(DecodeError) in
            config.output.u.RGBA.rgba = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
            config.output.u.RGBA.stride = Int32(scaled.width * 4)
            config.output.u.RGBA.size = pixels.count
            let status = WebPDecode(data, bytes.count, &config)
            WebPFreeDecBuffer(&config.output)  // frees nothing of ours (external memory), but is the contract
            guard status == VP8_STATUS_OK else { throw failure("WebPDecode", status) }
        }
        return DecodedImage(bitmap: bitmap, format: .webp, originalWidth: size.width, originalHeight: size.height)
    }

    /// The canvas size the headers declare, as `decode` reads it, and whether the file is an animation and lossless.
    static func features(_ bytes: UnsafeRawBufferPointer) throws(DecodeError)
        -> (size: PixelSize, animated: Bool, lossless: Bool) {
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        guard status == VP8_STATUS_OK else { throw failure("WebPGetFeatures", status) }
        return (PixelSize(width: Int(features.width), height: Int(features.height)), features.has_animation != 0,
                features.format == 2)
    }

    /// What `decode` will allocate (`DecodeCost`): an animation's first frame, or every frame it may keep.
    static func memoryCost(size: PixelSize, animated: Bool, lossless: Bool, options: DecodeOptions) -> Int {
        if animated {
            return options.keepsAnimationFrames ? options.maxMemory : DecodeCost.webpAnimation(canvas: size)
        }
        let scaled = options.targetSize.map { size.scaledToCover($0) } ?? size
        return DecodeCost.webp(full: size, scaled: scaled, lossless: lossless)
    }

    /// Every frame of an animated WebP as a full canvas (only the first unless `keepsAnimationFrames`).
    private static func decodeAnimation(_ bytes: UnsafeRawBufferPointer,
                                        options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        var reader = try WebPAnimationFrames(bytes, options: options)
        var frames: [AnimationFrame] = []
        var warning: String?
        reading: while true {
            switch try reader.next(options: options, framesHeld: frames.count) {
            case .frame(let frame):
                frames.append(frame)
                // Leaving the other frames out is what was asked for, not a limit that was hit: no warning.
                if !options.keepsAnimationFrames { break reading }
            case .end(let why):
                warning = why
                break reading
            }
        }
        guard let first = frames.first else { throw .corrupt(.webp, reason: "the animation holds no frame") }
        return DecodedImage(bitmap: first.bitmap, format: .webp, originalWidth: reader.canvasSize.width,
                            originalHeight: reader.canvasSize.height,
                            frames: options.keepsAnimationFrames && frames.count > 1 ? frames : [], warning: warning)
    }

    /// A libwebp status as a typed error, with the function that returned it.
    private static func failure(_ function: String, _ status: VP8StatusCode) -> DecodeError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA:
            .corrupt(.webp, reason: "\(function): the data ends early (cut short)")
        case VP8_STATUS_BITSTREAM_ERROR:
            .corrupt(.webp, reason: "\(function): the bitstream is invalid")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            .unsupported(.webp, reason: "\(function): the file uses a feature this libwebp does not support")
        case VP8_STATUS_OUT_OF_MEMORY:
            .corrupt(.webp, reason: "\(function): out of memory")
        default:
            .corrupt(.webp, reason: "\(function): libwebp status \(status.rawValue)")
        }
    }
}
